// `NearestName` chooses the "did you mean" hints of the policy's errors and of everything built
// on this library; it lives in TextMatching, which the command line's parser shares.
@_exported import TextMatching

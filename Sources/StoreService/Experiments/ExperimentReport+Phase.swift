import Foundation
import StoreCore

extension ExperimentReport {
    /// One phase of an experiment: its declared weights, who was exposed to each variant, the
    /// check of the split, the figures of each horizon and what the reader should know first.
    public struct Phase: Sendable, Hashable, Codable {
        /// Where the phase's weights come from.
        public enum WeightsSource: String, Sendable, Hashable, Codable {
            /// The phase record the ledger kept when its first exposure was recorded.
            case ledger
            /// The serving policy's declaration, for a phase the ledger has no record of yet.
            case policy
        }

        /// The phase.
        public var phase: String
        /// Whether it is the phase the serving policy declares.
        public var isServing: Bool
        /// Where ``variants``' weights come from.
        public var weightsSource: WeightsSource
        /// The percentage of customers in the experiment, as declared.
        public var traffic: Int
        /// The first exposure of the phase, ISO 8601; nil with none.
        public var firstExposure: String?
        /// The last exposure of the phase, ISO 8601; nil with none.
        public var lastExposure: String?
        /// Each variant: its declared weight and its exposed customers.
        public var variants: [VariantExposure]
        /// Whether the exposed customers are split as the weights say; read before any metric.
        public var sampleRatio: SampleRatioCheck
        /// Each policy version that exposed a customer in the phase.
        public var policyVersions: [String]
        /// What the reader should know before trusting the figures.
        public var notes: [ExperimentHealthNote]
        /// The figures of each horizon, the shortest first.
        public var horizons: [Horizon]

        /// Describes a phase.
        public init(phase: String, isServing: Bool, weightsSource: WeightsSource, traffic: Int, firstExposure: Date?,
                    lastExposure: Date?, variants: [VariantExposure], sampleRatio: SampleRatioCheck, policyVersions: [String],
                    notes: [ExperimentHealthNote], horizons: [Horizon]) {
            self.phase = phase
            self.isServing = isServing
            self.weightsSource = weightsSource
            self.traffic = traffic
            self.firstExposure = firstExposure?.formatted(.iso8601)
            self.lastExposure = lastExposure?.formatted(.iso8601)
            self.variants = variants
            self.sampleRatio = sampleRatio
            self.policyVersions = policyVersions
            self.notes = notes
            self.horizons = horizons
        }

        private enum CodingKeys: String, CodingKey {
            case phase, isServing = "serving", weightsSource = "weights_source", traffic, firstExposure = "first_exposure"
            case lastExposure = "last_exposure", variants, sampleRatio = "sample_ratio", policyVersions = "policy_versions", notes, horizons
        }
    }

    /// A variant's declared weight and the customers exposed to it.
    public struct VariantExposure: Sendable, Hashable, Codable {
        /// The variant.
        public var variant: String
        /// Its declared weight; 0 for a variant exposed that the phase does not declare.
        public var weight: Int
        /// The share of customers the weights give it, 0 to 1.
        public var expectedShare: Double
        /// Every customer exposed to it in the phase.
        public var exposedCustomers: Int
        /// Its share of the phase's exposed customers, 0 to 1 (0 with none).
        public var observedShare: Double

        /// Describes a variant's exposure.
        public init(variant: String, weight: Int, expectedShare: Double, exposedCustomers: Int, observedShare: Double) {
            self.variant = variant
            self.weight = weight
            self.expectedShare = expectedShare
            self.exposedCustomers = exposedCustomers
            self.observedShare = observedShare
        }

        private enum CodingKeys: String, CodingKey {
            case variant, weight, expectedShare = "expected_share", exposedCustomers = "exposed_customers", observedShare = "observed_share"
        }
    }

    /// The sample-ratio-mismatch check of a phase: Pearson's chi-square test of the exposed
    /// customers against the declared weights. When it is flagged, the split itself is broken
    /// and no metric of the phase is to be trusted.
    public struct SampleRatioCheck: Sendable, Hashable, Codable {
        /// The chi-square p-value.
        public var pValue: Double
        /// The p-value below which the check is flagged: ``ExperimentReport/sampleRatioMismatchThreshold``.
        public var threshold: Double
        /// Whether the p-value is below the threshold.
        public var isMismatch: Bool

        /// The check of a p-value.
        public init(pValue: Double, threshold: Double = ExperimentReport.sampleRatioMismatchThreshold) {
            self.pValue = pValue
            self.threshold = threshold
            isMismatch = pValue < threshold
        }

        private enum CodingKeys: String, CodingKey { case pValue = "p_value", threshold, isMismatch = "mismatch" }
    }
}

import Testing
@testable import SQLiteLedger

@Suite struct DatabaseCheckpointProgressTests {
    /// Commits of 17 pages after a log of `start` pages until one asks for a checkpoint on the
    /// queue: the pages the log then holds, and the log's number that checkpoint is for.
    private func commitUntilABackgroundCheckpoint(_ progress: inout DatabaseCheckpointer.Progress, after start: Int32 = 0) -> (pages: Int32, log: Int) {
        var pages = start
        while true {
            pages += 17
            if case .background(let log) = progress.step(afterCommitWith: pages) { return (pages, log) }
        }
    }

    @Test func aCheckpointThatFoundACommitBeforeItsHookRanStillLetsTheWriterFinishTheLog() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        // The next commit is in the log when the checkpoint runs, but its hook has not run yet.
        progress.checkpointedInBackground(log: pages + 17, copied: pages + 17, of: log, succeeded: true)
        #expect(progress.step(afterCommitWith: pages + 17) == .finish)
        #expect(progress.step(afterCommitWith: pages + 34) == .none)
        #expect(progress.step(afterCommitWith: 17) == .none)
        #expect(progress.counts.logsStartedOver == 1)
    }

    @Test func aCheckpointOfALogThatStartedOverSinceCountsNothingForTheNewLog() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        #expect(progress.step(afterCommitWith: 17) == .none)
        progress.checkpointedInBackground(log: pages, copied: pages, of: log, succeeded: true)
        #expect(progress.checkpointedLog == 0)
        #expect(progress.step(afterCommitWith: 34) == .none)
        let next = commitUntilABackgroundCheckpoint(&progress, after: 34)
        #expect(next.log == log + 1)
    }

    @Test func aCheckpointThatStoppedShortOfACommitStillLetsTheWriterFinishTheLog() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        // The writer of the next commit still held the pages before it when the checkpoint ran.
        progress.checkpointedInBackground(log: pages + 17, copied: pages, of: log, succeeded: true)
        #expect(progress.step(afterCommitWith: pages + 17) == .finish)
    }

    @Test func aCheckpointAReaderHeldFarBackLeavesTheRestToTheNextOneOnTheQueue() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        progress.checkpointedInBackground(log: pages, copied: 10, of: log, succeeded: true)
        #expect(progress.step(afterCommitWith: pages + 17) == .none)
        #expect(progress.step(afterCommitWith: pages + DatabaseCheckpointer.backgroundPages) == .background(log: log))
    }

    @Test func theWriterFinishesALogOnceAfterEachCheckpointOnTheQueue() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        progress.checkpointedInBackground(log: pages, copied: pages, of: log, succeeded: true)
        #expect(progress.step(afterCommitWith: pages + 17) == .finish)
        // A reader kept the finishing checkpoint from copying the last pages.
        progress.checkpointed(log: pages + 17, copied: pages, of: log)
        #expect(progress.step(afterCommitWith: pages + 34) == .none)
        #expect(progress.step(afterCommitWith: pages + 51) == .none)
    }

    @Test func aFailedCheckpointIsAskedForAgainByTheNextCommit() {
        var progress = DatabaseCheckpointer.Progress()
        let (pages, log) = commitUntilABackgroundCheckpoint(&progress)
        #expect(progress.step(afterCommitWith: pages + 17) == .none)
        progress.checkpointedInBackground(log: 0, copied: 0, of: log, succeeded: false)
        #expect(progress.counts.inBackground == 0)
        #expect(progress.step(afterCommitWith: pages + 34) == .background(log: log))
    }

    @Test func aLogAtTheInlineThresholdIsCheckpointedByTheCommitOnceNoneIsUnderWay() {
        var progress = DatabaseCheckpointer.Progress()
        _ = commitUntilABackgroundCheckpoint(&progress)
        #expect(progress.step(afterCommitWith: DatabaseCheckpointer.inlinePages) == .none)
        progress.checkpointedInBackground(log: 0, copied: 0, of: 0, succeeded: false)
        #expect(progress.step(afterCommitWith: DatabaseCheckpointer.inlinePages + 1) == .inline)
    }
}

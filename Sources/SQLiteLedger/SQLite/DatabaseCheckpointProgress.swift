extension DatabaseCheckpointer {
    /// Where the copying of the current log stands, with the counts: what each commit and
    /// each checkpoint tell a ``DatabaseCheckpointer``, and what a commit leads to.
    ///
    /// Logs are numbered by how many times a commit found the log started over
    /// (``Counts/logsStartedOver``). A checkpoint on the queue is counted for the log it was
    /// asked for in, never by comparing its pages with the last commit's: the checkpoint may
    /// find pages a commit wrote before that commit's hook has told the checkpointer of them.
    struct Progress {
        var counts = Counts()
        /// Pages in the log at the last commit; fewer at the next means the log started over.
        var logPages: Int32 = 0
        /// Pages the log held when the last checkpoint of it ran; 0 before one.
        var checkpointedLog: Int32 = 0
        /// Pages of the log that checkpoint copied into the file: fewer than it held when a
        /// reader still needed the others.
        var copiedPages: Int32 = 0
        /// Whether the writer copied the rest of the log since the last checkpoint on the queue.
        var isFinished = false

        /// Records a checkpoint of the log numbered `generation` that found `log` pages and
        /// copied `copied` of them, unless the log has started over since.
        mutating func checkpointed(log: Int32, copied: Int32, of generation: Int) {
            let isCurrentLog = generation == counts.logsStartedOver
            checkpointedLog = isCurrentLog ? log : 0
            copiedPages = isCurrentLog ? copied : 0
        }

        /// Records the end of a checkpoint on the queue, asked for in the log numbered
        /// `generation`; one that failed leaves the log as it was.
        mutating func checkpointedInBackground(log: Int32, copied: Int32, of generation: Int, succeeded: Bool) {
            counts.isScheduled = false
            guard succeeded else { return }
            counts.inBackground += 1
            checkpointed(log: log, copied: copied, of: generation)
            isFinished = false
        }

        /// What a commit that left `pages` pages of log leads to.
        mutating func step(afterCommitWith pages: Int32) -> Step {
            if pages < logPages {
                counts.logsStartedOver += 1
                checkpointedLog = 0
                copiedPages = 0
                isFinished = false
            }
            logPages = pages
            guard !counts.isScheduled else { return .none }
            if pages >= DatabaseCheckpointer.inlinePages { return .inline }
            guard pages >= DatabaseCheckpointer.backgroundPages else { return .none }
            if pages - checkpointedLog >= DatabaseCheckpointer.backgroundPages {
                counts.isScheduled = true
                return .background(log: counts.logsStartedOver)
            }
            // The last checkpoint copied most of the log; the writer copies the rest.
            guard checkpointedLog > 0, !isFinished, pages - copiedPages < DatabaseCheckpointer.backgroundPages else { return .none }
            isFinished = true
            return .finish
        }
    }

    /// What a commit leads to.
    enum Step: Equatable {
        /// Nothing: the log is short, or a checkpoint is under way.
        case none
        /// A checkpoint on the queue, of the log with this number.
        case background(log: Int)
        /// A checkpoint in the commit, of the few pages written since the last one.
        case finish
        /// A checkpoint in the commit, the log having grown too long.
        case inline
    }
}

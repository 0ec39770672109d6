/// How many rounds each figure of `storerules bench` is the best of.
public enum BenchRounds {
    /// Each figure is the best of this many rounds, taken in turn, so a busy moment on the
    /// machine skews no single figure.
    public static let count = 5
}

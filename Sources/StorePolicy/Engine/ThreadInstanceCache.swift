import Foundation
import Synchronization

/// Keeps, for each thread, the policy instance it last used with each engine.
///
/// A thread that decides again with the same engine and policy version gets its own instance
/// back without taking a lock, and a Lua state stays on the thread whose allocator arena
/// holds its memory. Entries of engines that no longer exist are dropped the next time the
/// thread misses its cache, and all of a thread's entries when the thread ends.
final class ThreadInstanceCache {
    /// One engine's instance on this thread.
    private final class Entry {
        weak var owner: EngineToken?
        let engine: Int
        let generation: Int
        let instance: PolicyInstance
        var busy = true

        init(owner: EngineToken, engine: Int, generation: Int, instance: PolicyInstance) {
            self.owner = owner
            self.engine = engine
            self.generation = generation
            self.instance = instance
        }
    }

    private var entries: [Int: Entry] = [:]
    private var last: Entry?
    /// The instance a storefront plan on this thread holds, with its engine's identifier:
    /// every hook of the plan runs on it.
    var held: (engine: Int, instance: PolicyInstance)?

    /// The calling thread's cache.
    static var current: ThreadInstanceCache {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadInstanceCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let cache = ThreadInstanceCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ThreadInstanceCache>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// Marks and returns the cached instance of `engine` when it is of `generation` and not
    /// already in use on this thread (a nested call).
    func borrow(engine: Int, generation: Int) -> PolicyInstance? {
        let found: Entry?
        if let last, last.engine == engine {
            found = last
        } else {
            found = entries[engine]
            last = found
        }
        guard let entry = found, entry.generation == generation, !entry.busy else { return nil }
        entry.busy = true
        return entry.instance
    }

    /// Ends the use ``borrow(engine:generation:)`` began.
    func giveBack(engine: Int) {
        if let last, last.engine == engine {
            last.busy = false
        } else {
            entries[engine]?.busy = false
        }
    }

    /// Keeps `instance` as the thread's instance of `engine` at `generation`, unless the
    /// thread is using another instance of that engine right now.
    func keep(_ instance: PolicyInstance, engine: Int, owner: EngineToken, generation: Int) -> Bool {
        if entries[engine]?.busy == true { return false }
        entries = entries.filter { $0.value.owner != nil }
        let entry = Entry(owner: owner, engine: engine, generation: generation, instance: instance)
        entries[engine] = entry
        last = entry
        return true
    }
}

/// Lives as long as its engine; thread caches hold it weakly to notice the engine is gone.
final class EngineToken: Sendable {
    /// A number no other engine in this process has.
    let identifier: Int

    private static let counter = Atomic<Int>(0)

    init() {
        identifier = Self.counter.add(1, ordering: .relaxed).newValue
    }
}

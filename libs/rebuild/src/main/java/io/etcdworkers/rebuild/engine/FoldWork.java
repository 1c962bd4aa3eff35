package io.etcdworkers.rebuild.engine;

/**
 * What only the offline fold does.
 *
 * @param memoryBudgetBytes heap the fold's live keys could take before going to disk partitions
 * @param partitions key partitions it folded one at a time; 0 when every key stayed on the heap
 * @param partitionedBytes bytes of changes written to those partitions
 * @param baseAsIs nothing was folded into a base that already holds one live entry per key, so
 *     the base's own database was restored and verified instead of a rewritten one
 * @param earlyStart whether etcd restored and opened the base while the fold read it
 */
public record FoldWork(
        long memoryBudgetBytes, int partitions, long partitionedBytes, boolean baseAsIs, EarlyStart earlyStart)
        implements EngineWork {

    /**
     * Whether the verifying etcd was started on the base while the fold still read it: only for a
     * base compacted at its revision with no delta after it.
     */
    public enum EarlyStart {
        /** etcd opened the fold's result after the fold. */
        NO("no"),
        /** etcd opened the base during the fold, and the fold found the base to be its result. */
        USED("used"),
        /** etcd opened the base during the fold, which then wrote a database of its own or refused. */
        SET_ASIDE("setAside");

        private final String json;

        EarlyStart(String json) {
            this.json = json;
        }

        /** The result JSON's value. */
        public String json() {
            return json;
        }
    }

    /** The same work, with the base's database used as it is. */
    public FoldWork withBaseAsIs() {
        return new FoldWork(memoryBudgetBytes, partitions, partitionedBytes, true, earlyStart);
    }

    /** The same work, with etcd's early start on the base as it went. */
    public FoldWork withEarlyStart(EarlyStart early) {
        return new FoldWork(memoryBudgetBytes, partitions, partitionedBytes, baseAsIs, early);
    }
}

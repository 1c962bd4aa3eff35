package io.etcdworkers.bench.generate;

/**
 * What etcd holds for one live key, as the generator's model tracks it.
 *
 * @param createRevision revision of the key's creation (of its latest incarnation)
 * @param modRevision revision of its last change
 * @param version changes since creation, 1 on creation
 * @param valueStamp the {@link ValueSource} stamp of its value
 */
public record KeyState(long createRevision, long modRevision, long version, long valueStamp) {

    /** The state after one more put at {@code revision}. */
    KeyState updated(long revision, long stamp) {
        return new KeyState(createRevision, revision, version + 1, stamp);
    }
}

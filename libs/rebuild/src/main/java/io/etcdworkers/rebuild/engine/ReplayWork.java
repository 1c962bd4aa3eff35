package io.etcdworkers.rebuild.engine;

/**
 * What only a replay into etcd does.
 *
 * @param leasesRevoked granted leases revoked at the end because no key used them
 * @param etcdRestarts restarts to raise the request limits
 * @param defrag compaction and defragmentation during the replay
 */
public record ReplayWork(int leasesRevoked, int etcdRestarts, DefragStats defrag) implements EngineWork {}

package io.etcdworkers.restore.etcd;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of the single member of the scratch cluster, shared by the snapshot restore
 * (which writes it into the data dir's membership) and the embedded etcd (which must advertise
 * the same name and peer URL, or it would not be the member the data dir describes).
 *
 * <p>Pick it once, before the restore: {@link #onFreeLoopbackPort} reserves nothing, it only
 * finds a port free at that moment; {@link EmbeddedEtcd} copes with it being taken later.
 *
 * @param name the member name ({@code --name})
 * @param peerUrl the advertised peer URL: {@code http://127.0.0.1:PORT} for a scratch member, or the
 *     real member's URL ({@code https://etcd-0.etcd-peer:2380}) when restoring a data dir for it; on a
 *     restored data dir etcd only records it in the membership and listens where it is told
 * @param clusterToken {@code --initial-cluster-token}
 */
public record EtcdMember(String name, URI peerUrl, String clusterToken) {

    public static final String DEFAULT_NAME = "restore";
    public static final String DEFAULT_CLUSTER_TOKEN = "etcd-restore-worker";
    // The name ends up in "name=url" lists; keep it to characters those lists cannot misread.
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]+");

    public EtcdMember {
        Objects.requireNonNull(peerUrl, "peerUrl");
        if (name == null || !SAFE.matcher(name).matches()) {
            throw new IllegalArgumentException("member name must match " + SAFE + ": " + name);
        }
        if (clusterToken == null || !SAFE.matcher(clusterToken).matches()) {
            throw new IllegalArgumentException("cluster token must match " + SAFE + ": " + clusterToken);
        }
        boolean scheme = "http".equals(peerUrl.getScheme()) || "https".equals(peerUrl.getScheme());
        if (!scheme || peerUrl.getHost() == null || peerUrl.getPort() <= 0 || !peerUrl.getPath().isEmpty()) {
            throw new IllegalArgumentException("peer URL must be http(s)://host:port: " + peerUrl);
        }
    }

    /** A member with the default name and token on a currently free loopback port. */
    public static EtcdMember onFreeLoopbackPort() {
        return new EtcdMember(DEFAULT_NAME, LoopbackPorts.url(LoopbackPorts.free()), DEFAULT_CLUSTER_TOKEN);
    }

    /** {@code --initial-cluster} for a one-member cluster: {@code name=peerUrl}. */
    public String initialCluster() {
        return name + "=" + peerUrl;
    }

    public int peerPort() {
        return peerUrl.getPort();
    }
}

package io.etcdworkers.etcd;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
 * @param cluster every member of the initial cluster by name, this one included, in the order given:
 *     a data dir restored for one member of a multi-member cluster records them all (as {@code etcdutl
 *     snapshot restore} does), and each member's Job restores the same revision under its own name
 */
public record EtcdMember(String name, URI peerUrl, String clusterToken, Map<String, URI> cluster) {

    public static final String DEFAULT_NAME = "restore";
    public static final String DEFAULT_CLUSTER_TOKEN = "etcd-restore-worker";
    // The name ends up in "name=url" lists; keep it to characters those lists cannot misread.
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]+");

    /** A member that is the whole cluster. */
    public EtcdMember(String name, URI peerUrl, String clusterToken) {
        this(name, peerUrl, clusterToken, single(name, peerUrl));
    }

    public EtcdMember {
        Objects.requireNonNull(peerUrl, "peerUrl");
        if (name == null || !SAFE.matcher(name).matches()) {
            throw new IllegalArgumentException("member name must match " + SAFE + ": " + name);
        }
        if (clusterToken == null || !SAFE.matcher(clusterToken).matches()) {
            throw new IllegalArgumentException("cluster token must match " + SAFE + ": " + clusterToken);
        }
        checkPeerUrl(peerUrl);
        cluster = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(cluster, "cluster")));
        for (Map.Entry<String, URI> m : cluster.entrySet()) {
            if (!SAFE.matcher(m.getKey()).matches()) {
                throw new IllegalArgumentException("member name must match " + SAFE + ": " + m.getKey());
            }
            checkPeerUrl(m.getValue());
        }
        if (!peerUrl.equals(cluster.get(name))) {
            throw new IllegalArgumentException(
                    "the initial cluster must name this member, " + name + "=" + peerUrl + ": " + join(cluster));
        }
    }

    private static void checkPeerUrl(URI url) {
        boolean scheme = "http".equals(url.getScheme()) || "https".equals(url.getScheme());
        if (!scheme
                || url.getHost() == null
                || url.getPort() <= 0
                || !url.getPath().isEmpty()) {
            throw new IllegalArgumentException("peer URL must be http(s)://host:port: " + url);
        }
    }

    private static Map<String, URI> single(String name, URI peerUrl) {
        Map<String, URI> one = new LinkedHashMap<>();
        one.put(name, peerUrl);
        return one;
    }

    private static String join(Map<String, URI> cluster) {
        return cluster.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /**
     * This member as a cluster of its own: what a scratch etcd runs as (a member of a three-member
     * cluster could never start alone, having no quorum). Only the placed data dir records the others.
     */
    public EtcdMember alone() {
        return cluster.size() == 1 ? this : new EtcdMember(name, peerUrl, clusterToken);
    }

    /** A member with the default name and token on a currently free loopback port. */
    public static EtcdMember onFreeLoopbackPort() {
        return new EtcdMember(DEFAULT_NAME, LoopbackPorts.url(LoopbackPorts.free()), DEFAULT_CLUSTER_TOKEN);
    }

    /** {@code --initial-cluster}: {@code name=peerUrl} of every member, comma-separated. */
    public String initialCluster() {
        return join(cluster);
    }

    public int peerPort() {
        return peerUrl.getPort();
    }
}

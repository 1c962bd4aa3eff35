package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.etcd.EtcdMember;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The member a data dir is restored for, with {@code etcdbrctl restore}'s flag names and
 * defaults. For a cluster of several members, each member's Job restores the same backup with
 * the same {@code --initial-cluster} and token under its own {@code --name} and peer URL (as
 * {@code etcdutl snapshot restore} is run once per member); the data dirs then form the cluster.
 */
public final class MemberOptions {
    static final String DEFAULT_PEER_URL = "http://localhost:2380";

    @Option(names = WorkerFlags.NAME, paramLabel = "NAME", description = "Member name. Default: ${DEFAULT-VALUE}.")
    String name = "default";

    @Option(
            names = WorkerFlags.INITIAL_CLUSTER,
            paramLabel = "NAME=URL[,NAME=URL...]",
            description = "Initial cluster of the restored member: NAME=PEER_URL of every member, --name among them. "
                    + "Default: <name>=<initial-advertise-peer-urls>.")
    String initialCluster;

    @Option(
            names = WorkerFlags.INITIAL_CLUSTER_TOKEN,
            paramLabel = "TOKEN",
            description = "Initial cluster token. Default: ${DEFAULT-VALUE}.")
    String clusterToken = "etcd-cluster";

    @Option(
            names = WorkerFlags.INITIAL_ADVERTISE_PEER_URLS,
            paramLabel = "URL",
            description = "Peer URL of the restored member; must be its --initial-cluster entry when both are given. "
                    + "Default: its --initial-cluster entry, else " + DEFAULT_PEER_URL + ".")
    String advertisePeerUrl;

    public EtcdMember toMember() {
        String advertised = advertisePeerUrl == null || advertisePeerUrl.isBlank() ? null : advertisePeerUrl.strip();
        if (advertised != null && advertised.contains(",")) {
            throw usage("--initial-advertise-peer-urls takes one URL here: " + advertised);
        }
        Map<String, URI> cluster = cluster();
        URI peer;
        if (cluster.isEmpty()) {
            peer = uri("--initial-advertise-peer-urls", advertised == null ? DEFAULT_PEER_URL : advertised);
            cluster.put(name, peer);
        } else {
            URI own = cluster.get(name);
            if (own == null) {
                throw usage("--initial-cluster must name this member (--name " + name + "=<peer URL>), got "
                        + initialCluster + ": give as --name the member this data dir is for, one of "
                        + String.join(", ", cluster.keySet())
                        + ("default".equals(name) ? " (without --name the member is etcd's \"default\")" : ""));
            }
            peer = own;
            if (advertised != null
                    && !uri("--initial-advertise-peer-urls", advertised).equals(own)) {
                throw usage("--initial-advertise-peer-urls " + advertised + " is not this member's --initial-cluster "
                        + "entry " + name + "=" + own + ": give the same URL, or only one of them");
            }
        }
        try {
            return new EtcdMember(name, peer, clusterToken, cluster);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The members of {@code --initial-cluster} in order; empty when it is not given. */
    private Map<String, URI> cluster() {
        Map<String, URI> cluster = new LinkedHashMap<>();
        if (initialCluster == null || initialCluster.isBlank()) {
            return cluster;
        }
        for (String member : initialCluster.split(",")) {
            String[] pair = member.split("=", 2);
            if (pair.length != 2 || pair[0].isBlank()) {
                throw usage("--initial-cluster entries are NAME=PEER_URL, got \"" + member.strip() + "\" in "
                        + initialCluster + " (--name is " + name + ")");
            }
            if (cluster.put(pair[0].strip(), uri("--initial-cluster", pair[1].strip())) != null) {
                throw usage("--initial-cluster names " + pair[0].strip() + " twice: " + initialCluster);
            }
        }
        return cluster;
    }

    private static URI uri(String flag, String value) {
        try {
            return new URI(value.strip());
        } catch (URISyntaxException e) {
            throw usage(flag + " is not a URL: " + value);
        }
    }

    private static WorkerException usage(String message) {
        return new WorkerException(ErrorCode.USAGE, message);
    }
}

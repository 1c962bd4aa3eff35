package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.etcd.EtcdMember;
import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.Option;

/**
 * The member a data dir is restored for, with {@code etcdbrctl restore}'s flag names and
 * defaults. One member only: a data dir for a multi-member cluster is restored as a single
 * member and the others join it, as etcd-druid scales a restored cluster up.
 */
public final class MemberOptions {
    @Option(names = WorkerFlags.NAME, paramLabel = "NAME", description = "Member name. Default: ${DEFAULT-VALUE}.")
    String name = "default";

    @Option(names = WorkerFlags.INITIAL_CLUSTER, paramLabel = "NAME=URL",
            description = "Initial cluster of the restored member: exactly one NAME=PEER_URL. Default: <name>=<initial-advertise-peer-urls>.")
    String initialCluster;

    @Option(names = WorkerFlags.INITIAL_CLUSTER_TOKEN, paramLabel = "TOKEN", description = "Initial cluster token. Default: ${DEFAULT-VALUE}.")
    String clusterToken = "etcd-cluster";

    @Option(names = WorkerFlags.INITIAL_ADVERTISE_PEER_URLS, paramLabel = "URL",
            description = "Peer URL of the restored member. Default: ${DEFAULT-VALUE}.")
    String advertisePeerUrl = "http://localhost:2380";

    public EtcdMember toMember() {
        URI peer = uri("--initial-advertise-peer-urls", advertisePeerUrl);
        if (advertisePeerUrl.contains(",")) {
            throw usage("--initial-advertise-peer-urls takes one URL here: " + advertisePeerUrl);
        }
        if (initialCluster != null && !initialCluster.isBlank()) {
            String[] members = initialCluster.split(",");
            if (members.length != 1) {
                throw usage("--initial-cluster names " + members.length + " members; restore one member (its own "
                        + "NAME=URL) and let the others join it, as etcd-druid scales a restored cluster up");
            }
            String[] pair = members[0].split("=", 2);
            if (pair.length != 2 || !pair[0].strip().equals(name)) {
                throw usage("--initial-cluster must be " + name + "=<peer URL> (the --name), got " + initialCluster);
            }
            URI clusterPeer = uri("--initial-cluster", pair[1].strip());
            if (!clusterPeer.equals(peer)) {
                peer = clusterPeer;
            }
        }
        try {
            return new EtcdMember(name, peer, clusterToken);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
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

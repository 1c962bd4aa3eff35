package io.etcdworkers.launcher.job;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A restore of every member of one etcd cluster: one Job per member, run side by side, each into the
 * member's own claim under the member's name and its {@code --initial-cluster} entry as peer URL.
 * {@link JobFactory#build(ClusterRestoreRequest)} names each Job after its member and labels it
 * {@link JobNames#LABEL_MEMBER}, so the members' Jobs do not count as a second run of one another.
 *
 * @param members one restore request per member, in {@code --initial-cluster} order
 */
public record ClusterRestoreRequest(List<JobRequest> members) {

    public ClusterRestoreRequest {
        members = List.copyOf(Objects.requireNonNull(members, "members"));
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a restore of every member needs at least one member");
        }
        Set<String> names = new HashSet<>();
        JobRequest first = members.get(0);
        for (JobRequest member : members) {
            if (!(member.work() instanceof RestoreFlags restore) || restore.name() == null) {
                throw new IllegalArgumentException("each member's request is a restore under the member's --name");
            }
            if (!member.etcdName().equals(first.etcdName())
                    || !member.namespace().equals(first.namespace())) {
                throw new IllegalArgumentException("the members restore one etcd in one namespace");
            }
            if (!names.add(restore.name())) {
                throw new IllegalArgumentException("member " + restore.name() + " is named twice");
            }
        }
    }

    /**
     * The members of {@code initialCluster} ({@code NAME=PEER_URL,...}), each restored into its claim
     * from {@code claims} with the {@code common} request and {@code restore} flags; the claims must name
     * exactly the members.
     */
    public static ClusterRestoreRequest of(
            JobRequest.Builder common,
            RestoreFlags.Builder restore,
            String initialCluster,
            Map<String, String> claims) {
        Map<String, String> peers = peers(initialCluster);
        if (claims == null || !peers.keySet().equals(claims.keySet())) {
            throw new IllegalArgumentException("--member-claims must name exactly the members of --initial-cluster "
                    + peers.keySet() + ", got " + (claims == null ? "none" : claims.keySet()));
        }
        restore.initialCluster(initialCluster);
        return new ClusterRestoreRequest(peers.entrySet().stream()
                .map(m -> common.work(restore.targetClaim(claims.get(m.getKey()))
                                .name(m.getKey())
                                .initialAdvertisePeerUrls(m.getValue())
                                .build())
                        .build())
                .toList());
    }

    /** An {@code --initial-cluster} value as the members' names and peer URLs, in order. */
    public static Map<String, String> peers(String initialCluster) {
        if (initialCluster == null || initialCluster.isBlank()) {
            throw new IllegalArgumentException(
                    "--member-claims needs --initial-cluster with every member's NAME=PEER_URL");
        }
        Map<String, String> members = new LinkedHashMap<>();
        for (String entry : initialCluster.split(",")) {
            String[] pair = entry.split("=", 2);
            if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
                throw new IllegalArgumentException(
                        "--initial-cluster entries are NAME=PEER_URL, got \"" + entry.strip() + "\"");
            }
            if (members.put(pair[0].strip(), pair[1].strip()) != null) {
                throw new IllegalArgumentException("--initial-cluster names " + pair[0].strip() + " twice");
            }
        }
        return members;
    }

    /** The member a request restores. */
    static String member(JobRequest request) {
        return ((RestoreFlags) request.work()).name();
    }
}

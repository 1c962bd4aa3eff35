package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.JobOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The revision bump every member of a restored cluster reports in its result ({@code
 * revisionBump}): the members must start at the same revision, or the cluster's revisions differ
 * from member to member. Each member's worker computes the default bump from the bucket as it
 * finds it, so a bucket that changed between them (the old cluster's sidecar still writing) gives
 * different bumps; one {@code --bump-revision N} for all cannot.
 */
final class MemberBumps {
    /** The result field the restore worker writes its bump into. */
    static final String FIELD = "revisionBump";

    private MemberBumps() {}

    /** What differs between the members' bumps, naming each Job's; empty when they agree. */
    static Optional<String> disagreement(List<JobOutcome> members) {
        Map<String, String> bumps = new LinkedHashMap<>();
        for (JobOutcome member : members) {
            String bump = member.result() == null
                    ? "(no result)"
                    : member.result().field(FIELD).orElse("(not reported)");
            bumps.put(member.jobName(), bump);
        }
        if (bumps.values().stream().distinct().count() <= 1) {
            return Optional.empty();
        }
        return Optional.of("the members were restored with different revision bumps ("
                + bumps.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .collect(Collectors.joining("; "))
                + "): do not start the cluster; restore every member again with one --bump-revision N "
                + "--mark-compacted, N above the largest amount here");
    }
}

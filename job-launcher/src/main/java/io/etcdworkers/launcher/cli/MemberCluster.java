package io.etcdworkers.launcher.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** An {@code --initial-cluster} value as the members' names and peer URLs, in order. */
final class MemberCluster {
    private MemberCluster() {
    }

    static Map<String, String> parse(String initialCluster) {
        if (initialCluster == null || initialCluster.isBlank()) {
            throw new IllegalArgumentException("--member-claims needs --initial-cluster with every member's NAME=PEER_URL");
        }
        Map<String, String> members = new LinkedHashMap<>();
        for (String entry : initialCluster.split(",")) {
            String[] pair = entry.split("=", 2);
            if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
                throw new IllegalArgumentException("--initial-cluster entries are NAME=PEER_URL, got \"" + entry.strip()
                        + "\"");
            }
            if (members.put(pair[0].strip(), pair[1].strip()) != null) {
                throw new IllegalArgumentException("--initial-cluster names " + pair[0].strip() + " twice");
            }
        }
        return members;
    }
}

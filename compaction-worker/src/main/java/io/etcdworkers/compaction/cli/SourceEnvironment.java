package io.etcdworkers.compaction.cli;

import io.etcdworkers.contract.WorkerEnv;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment the source store is opened with, by etcdbrctl's rule for a copy's source: each
 * credentials variable (and {@code STORAGE_CONTAINER}) is read with the prefix {@code SOURCE_}
 * ({@code SOURCE_AWS_APPLICATION_CREDENTIALS}, ...), never the target's; Swift's {@code OS_*}
 * login variables as {@code SOURCE_OS_*}, but its region from {@code OS_REGION_NAME} as for the
 * target; ECS's variables have no source twin, so both sides read the same ones. The rest of the
 * environment ({@code HOME}, the flags' twins) is the process's.
 */
final class SourceEnvironment {
    static final String PREFIX = "SOURCE_";

    /** The target's variables a source never reads unprefixed. */
    static final List<String> PREFIXED = List.of(
            WorkerEnv.STORAGE_CONTAINER,
            WorkerEnv.AWS_APPLICATION_CREDENTIALS,
            WorkerEnv.AWS_APPLICATION_CREDENTIALS_JSON,
            WorkerEnv.AZURE_APPLICATION_CREDENTIALS,
            WorkerEnv.AZURE_APPLICATION_CREDENTIALS_JSON,
            WorkerEnv.GOOGLE_APPLICATION_CREDENTIALS,
            WorkerEnv.GOOGLE_STORAGE_API_ENDPOINT,
            WorkerEnv.OPENSTACK_APPLICATION_CREDENTIALS,
            WorkerEnv.OPENSTACK_APPLICATION_CREDENTIALS_JSON,
            WorkerEnv.ALICLOUD_APPLICATION_CREDENTIALS,
            WorkerEnv.ALICLOUD_APPLICATION_CREDENTIALS_JSON,
            WorkerEnv.OPENSHIFT_APPLICATION_CREDENTIALS,
            WorkerEnv.OPENSHIFT_APPLICATION_CREDENTIALS_JSON);

    private SourceEnvironment() {}

    static Map<String, String> of(Map<String, String> env) {
        Map<String, String> source = new HashMap<>(env);
        PREFIXED.forEach(source::remove);
        source.keySet().removeIf(k -> k.startsWith("OS_") && !k.equals(WorkerEnv.OS_REGION_NAME));
        for (String name : PREFIXED) {
            String value = env.get(PREFIX + name);
            if (value != null) {
                source.put(name, value);
            }
        }
        env.forEach((name, value) -> {
            if (name.startsWith(PREFIX + "OS_") && !name.equals(PREFIX + WorkerEnv.OS_REGION_NAME)) {
                source.put(name.substring(PREFIX.length()), value);
            }
        });
        return source;
    }
}

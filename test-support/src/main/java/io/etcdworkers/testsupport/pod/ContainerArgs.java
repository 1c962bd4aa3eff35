package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of {@code podman run}'s arguments that a pod's securityContext and its container's
 * securityContext and resources give, as a kubelet hands them to its runtime:
 * <ul>
 *   <li>{@code runAsUser}/{@code runAsGroup} (the container's over the pod's) as {@code --user}, the
 *       {@code fsGroup} and {@code supplementalGroups} as the process's other groups; {@code runAsNonRoot}
 *       refuses uid 0 as the kubelet does ({@code CreateContainerConfigError});</li>
 *   <li>{@code readOnlyRootFilesystem} as {@code --read-only --read-only-tmpfs=false} (podman would
 *       otherwise mount writable tmpfs on /tmp, /var/tmp and /run, which a pod does not get);</li>
 *   <li>{@code capabilities}, {@code allowPrivilegeEscalation: false} ({@code no-new-privileges}),
 *       {@code privileged}, {@code seccompProfile} ({@code RuntimeDefault} is podman's default profile);</li>
 *   <li>{@code limits.memory} as {@code --memory} with {@code --memory-swap} equal (no swap, as a
 *       kubelet's containers), {@code limits.cpu} as {@code --cpus} (the CFS quota),
 *       {@code requests.cpu} as {@code --cpu-shares} (milli-CPU x 1024 / 1000); {@code requests.memory} is
 *       the scheduler's (under cgroup v1 the container's cgroup holds the limit alone).</li>
 * </ul>
 */
final class ContainerArgs {
    private ContainerArgs() {}

    /** The effective user and groups. */
    record Identity(long uid, long gid, Long fsGroup, String fsGroupChangePolicy, List<Long> groups) {}

    static Identity identity(TemplateFields f, String container) {
        Long uid =
                first(f.number(container + ".securityContext.runAsUser"), f.number("spec.securityContext.runAsUser"));
        Long gid =
                first(f.number(container + ".securityContext.runAsGroup"), f.number("spec.securityContext.runAsGroup"));
        boolean nonRoot =
                f.bool(container + ".securityContext.runAsNonRoot", f.bool("spec.securityContext.runAsNonRoot", false));
        if (uid == null) {
            throw new IllegalStateException("no runAsUser: the image's user would run; render one");
        }
        if (nonRoot && uid == 0) {
            throw new IllegalStateException("CreateContainerConfigError: runAsNonRoot and runAsUser 0");
        }
        Long fsGroup = f.number("spec.securityContext.fsGroup");
        String policy = f.text("spec.securityContext.fsGroupChangePolicy");
        List<Long> groups = new ArrayList<>();
        if (fsGroup != null) {
            groups.add(fsGroup);
        }
        JsonNode supplemental = f.whole("spec.securityContext.supplementalGroups");
        supplemental.forEach(g -> groups.add(g.asLong()));
        return new Identity(uid, gid == null ? uid : gid, fsGroup, policy, groups);
    }

    static List<String> security(TemplateFields f, String container, Identity id) {
        List<String> args = new ArrayList<>();
        args.add("--user=" + id.uid() + ":" + id.gid());
        id.groups().forEach(g -> args.add("--group-add=" + g));
        if (f.bool(container + ".securityContext.readOnlyRootFilesystem", false)) {
            args.add("--read-only");
            args.add("--read-only-tmpfs=false");
        }
        int drops = f.size(container + ".securityContext.capabilities.drop");
        for (int i = 0; i < drops; i++) {
            args.add("--cap-drop=" + f.text(container + ".securityContext.capabilities.drop[" + i + "]"));
        }
        int adds = f.size(container + ".securityContext.capabilities.add");
        for (int i = 0; i < adds; i++) {
            args.add("--cap-add=" + f.text(container + ".securityContext.capabilities.add[" + i + "]"));
        }
        if (!f.bool(container + ".securityContext.allowPrivilegeEscalation", true)) {
            args.add("--security-opt=no-new-privileges");
        }
        if (f.bool(container + ".securityContext.privileged", false)) {
            args.add("--privileged");
        }
        String seccomp = first(
                f.text(container + ".securityContext.seccompProfile.type"),
                f.text("spec.securityContext.seccompProfile.type"));
        if (seccomp == null || seccomp.equals("Unconfined")) {
            // a pod without a profile runs unconfined (the kubelet's default without SeccompDefault)
            args.add("--security-opt=seccomp=unconfined");
        } else if (!seccomp.equals("RuntimeDefault")) {
            throw new IllegalStateException(
                    "seccompProfile " + seccomp + " is not translated (RuntimeDefault, Unconfined)");
        }
        return args;
    }

    static List<String> resources(TemplateFields f, String container) {
        List<String> args = new ArrayList<>();
        String memory = f.text(container + ".resources.limits.memory");
        if (memory != null) {
            long bytes = Quantities.bytes(memory);
            args.add("--memory=" + bytes);
            args.add("--memory-swap=" + bytes);
        }
        String cpu = f.text(container + ".resources.limits.cpu");
        if (cpu != null) {
            // a quota above the node's cores binds nothing (and podman refuses it): at most the cores
            long cores = Runtime.getRuntime().availableProcessors() * 1000L;
            args.add("--cpus=" + Math.min(Quantities.milliCpu(cpu), cores) / 1000.0);
        }
        String cpuRequest = f.text(container + ".resources.requests.cpu");
        if (cpuRequest != null) {
            args.add("--cpu-shares=" + Math.max(2, Quantities.milliCpu(cpuRequest) * 1024 / 1000));
        }
        return args;
    }

    @SafeVarargs
    private static <T> T first(T... values) {
        for (T v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}

package io.etcdworkers.testsupport.pod;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * One pod of a rendered pod template, run in a container as a kubelet would run it on a node of
 * its own: what the node holds is given here (the directories that are the claims, the Secrets the
 * test created, the API server when there is one), then {@link #run} or {@link #start}.
 *
 * <pre>{@code
 * PodExit exit = PodRun.of(PodTemplate.single(yaml)).claim("bucket", bucketDir).claim("data", dataDir)
 *         .workDir(dir).run(Duration.ofMinutes(2));
 * }</pre>
 *
 * <p>The translation reads the template field by field ({@link PodTranslation}); a field it neither
 * translates nor declares without meaning on one machine fails the run, so nothing the launcher
 * renders is silently dropped.
 */
public final class PodRun {
    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";

    private final PodTemplate template;
    private final Map<String, Path> claims = new HashMap<>();
    private final Map<String, Map<String, byte[]>> secrets = new HashMap<>();
    private ClusterAccess cluster;
    private Path workDir;
    private String podName;
    private String uid = UUID.randomUUID().toString();

    private PodRun(PodTemplate template) {
        this.template = template;
    }

    public static PodRun of(PodTemplate template) {
        return new PodRun(Objects.requireNonNull(template, "template"));
    }

    /** The directory a PersistentVolumeClaim of that name is bound to. */
    public PodRun claim(String claimName, Path dir) {
        claims.put(claimName, dir);
        return this;
    }

    /** A Secret in the pod's namespace: its keys and their values. */
    public PodRun secret(String name, Map<String, byte[]> keys) {
        secrets.put(name, new LinkedHashMap<>(keys));
        return this;
    }

    /** The API server the pod reaches (its ServiceAccount token is mounted when the template asks for it). */
    public PodRun cluster(ClusterAccess access) {
        this.cluster = access;
        return this;
    }

    /** Where the pod's emptyDirs, Secret files, termination message and logs go (a fresh directory per pod). */
    public PodRun workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /** The pod's name (default: the Job's name and five random characters, as the Job controller names them). */
    public PodRun name(String name) {
        this.podName = name;
        return this;
    }

    /** The pod's {@code metadata.uid}. */
    public PodRun uid(String podUid) {
        this.uid = podUid;
        return this;
    }

    public PodTemplate template() {
        return template;
    }

    public String podName() {
        if (podName == null) {
            Random random = new Random();
            StringBuilder suffix = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                suffix.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
            }
            podName = template.jobName() + "-" + suffix;
        }
        return podName;
    }

    public String uid() {
        return uid;
    }

    /**
     * The template translated, its volumes made under the work dir, nothing run: podman's arguments,
     * and what was declared without meaning. Fails on a field neither translated nor declared.
     */
    public PodTranslation translate() {
        Objects.requireNonNull(workDir, "workDir");
        return PodTranslation.translate(
                template, podName(), uid, workDir.resolve(podName()), Map.copyOf(claims), Map.copyOf(secrets), cluster);
    }

    /** Starts the pod's container; the handle waits for its end, its log, or stops it. */
    public RunningPod start() {
        Podman podman = Podman.require();
        return RunningPod.start(podman, translate());
    }

    /** Runs the pod to its end. */
    public PodExit run(Duration timeout) {
        return start().awaitExit(timeout);
    }

    /** The fields of the template the translation declares without meaning on one machine, and why. */
    public static List<String> fieldsWithoutMeaning() {
        return PodTranslation.NO_MEANING.stream()
                .map(n -> n.path() + ": " + n.why())
                .toList();
    }
}

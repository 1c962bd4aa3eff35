package io.etcdworkers.launcher.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names and labels of the launcher's objects: deterministic per target and kind, always valid.
 *
 * <p>A Job is {@code <etcd>-<kind>-<yyyyMMdd-HHmmss>}: the base says what it is for, the time keeps
 * repeated runs apart while a finished Job waits for its TTL. Names are cut to 63 characters (Job
 * names become pod label values) or 52 for a CronJob (its controller appends 11), with a short hash
 * of the full base so two long etcd names never collide.
 *
 * <p>Labels use {@code app.kubernetes.io/*} with values of our own, and never the keys an etcd
 * PodDisruptionBudget selects on ({@code name}/{@code instance} in older etcd-druid,
 * {@code app.kubernetes.io/managed-by=etcd-druid} plus {@code part-of=<etcd>} in newer ones), so a
 * worker pod can never count against the etcd pods' budget or be mistaken for an etcd member.
 */
public final class JobNames {
    public static final String LABEL_NAME = "app.kubernetes.io/name";
    public static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    public static final String LABEL_COMPONENT = "app.kubernetes.io/component";
    public static final String LABEL_PART_OF = "app.kubernetes.io/part-of";
    public static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The etcd cluster a Job is for; with the component label it identifies the target. */
    public static final String LABEL_ETCD = "etcd-workers.io/etcd";
    /** On the Jobs of a restore of every member: which member this one restores. */
    public static final String LABEL_MEMBER = "etcd-workers.io/member";

    public static final String NAME_VALUE = "etcd-workers";
    public static final String PART_OF_VALUE = "etcd-workers";
    public static final String MANAGED_BY_VALUE = "etcd-workers-launcher";

    static final int MAX_JOB_NAME = 63;
    static final int MAX_CRONJOB_NAME = 52;
    private static final DateTimeFormatter RUN =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private JobNames() {}

    /** {@code <etcd>-restore} or {@code <etcd>-compaction}: the target's base name. */
    public static String base(String etcdName, WorkerKind kind) {
        return etcdName + "-" + kind.nameSuffix();
    }

    /** The Job name for a run started at {@code now}. */
    public static String jobName(String etcdName, WorkerKind kind, Instant now) {
        String run = RUN.format(now);
        return fit(base(etcdName, kind), MAX_JOB_NAME - run.length() - 1) + "-" + run;
    }

    /** The Job name of one member's restore among several started at {@code now}. */
    public static String jobName(String etcdName, WorkerKind kind, String member, Instant now) {
        String run = RUN.format(now);
        return fit(base(etcdName, kind) + "-" + member, MAX_JOB_NAME - run.length() - 1) + "-" + run;
    }

    /** The CronJob name: the base alone, since the CronJob is the one object per target. */
    public static String cronJobName(String etcdName) {
        return cronJobName(etcdName, WorkerKind.COMPACT);
    }

    /** The CronJob of one kind of scheduled run: {@code <etcd>-compaction}, {@code <etcd>-verify}, {@code <etcd>-drill}. */
    public static String cronJobName(String etcdName, WorkerKind kind) {
        return fit(base(etcdName, kind), MAX_CRONJOB_NAME);
    }

    /** The labels of every object and pod the launcher makes, sorted by key. */
    public static Map<String, String> labels(String etcdName, WorkerKind kind, String instance) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(LABEL_NAME, NAME_VALUE);
        labels.put(LABEL_INSTANCE, instance);
        labels.put(LABEL_COMPONENT, kind.nameSuffix());
        labels.put(LABEL_PART_OF, PART_OF_VALUE);
        labels.put(LABEL_MANAGED_BY, MANAGED_BY_VALUE);
        labels.put(LABEL_ETCD, labelValue(etcdName));
        return labels;
    }

    /** The labels of one member's restore among several: {@link #labels} plus {@link #LABEL_MEMBER}. */
    public static Map<String, String> memberLabels(String etcdName, String instance, String member) {
        Map<String, String> labels = labels(etcdName, WorkerKind.RESTORE, instance);
        labels.put(LABEL_MEMBER, member.length() <= MAX_JOB_NAME ? member : member.substring(0, MAX_JOB_NAME));
        return labels;
    }

    /** The labels that identify one target: the same for every run against it. */
    public static Map<String, String> targetSelector(String etcdName, WorkerKind kind) {
        Map<String, String> selector = new TreeMap<>();
        selector.put(LABEL_MANAGED_BY, MANAGED_BY_VALUE);
        selector.put(LABEL_COMPONENT, kind.nameSuffix());
        selector.put(LABEL_ETCD, labelValue(etcdName));
        return selector;
    }

    /** A label value (at most 63, alphanumeric at both ends) for a name that may be longer. */
    static String labelValue(String name) {
        return fit(name.replace('.', '-'), MAX_JOB_NAME);
    }

    /** {@code s} if it fits in {@code max}; otherwise a cut of it plus 8 hex of its SHA-256. */
    static String fit(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        String hash = sha256(s).substring(0, 8);
        String cut = s.substring(0, max - hash.length() - 1).replaceAll("[-.]+$", "");
        return cut + "-" + hash;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}

package io.etcdworkers.testsupport.pod;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pod's volumes made as a kubelet makes them, as host directories the container mounts:
 * <ul>
 *   <li>{@code persistentVolumeClaim}: the directory the test gave for the claim (a claim the test
 *       did not give fails the pod, as an unbound claim keeps it Pending);</li>
 *   <li>{@code emptyDir} on disk: a new directory, mode 0777 (never a tmpfs: a kubelet's disk
 *       emptyDir is not charged to the container's memory, a tmpfs would be); its {@code sizeLimit}
 *       is kept for {@link RunningPod}'s eviction check;</li>
 *   <li>{@code secret}: the Secret the test gave, its keys (or its {@code items}) as files with their
 *       modes in the atomic writer's layout ({@link ProjectedFiles}), mounted read-only;</li>
 *   <li>the ServiceAccount's token ({@code automountServiceAccountToken}): {@code token},
 *       {@code ca.crt} and {@code namespace} with mode 0644, as the {@code kube-api-access-*}
 *       projected volume.</li>
 * </ul>
 * Then the pod's {@code fsGroup} owns them ({@link VolumeOwnership}): read-write claims and
 * emptyDirs by the pod's {@code fsGroupChangePolicy}, Secrets and the token always; read-only
 * claims are left as they are (CSI drivers apply no {@code fsGroup} to a read-only volume).
 */
final class KubeletVolumes {
    /** A volume on the host, and whether its source is read-only (the mount is then read-only too). */
    record HostVolume(Path dir, boolean readOnly, String sizeLimit) {}

    private KubeletVolumes() {}

    static Map<String, HostVolume> prepare(
            TemplateFields fields,
            Path podDir,
            Map<String, Path> claims,
            Map<String, Map<String, byte[]>> secrets,
            Long fsGroup,
            String changePolicy) {
        Map<String, HostVolume> volumes = new LinkedHashMap<>();
        int count = fields.size("spec.volumes");
        for (int i = 0; i < count; i++) {
            String at = "spec.volumes[" + i + "]";
            String name = fields.text(at + ".name");
            Path dir = podDir.resolve("volumes").resolve(name);
            HostVolume volume;
            if (!fields.get(at + ".persistentVolumeClaim").isMissingNode()) {
                String claim = fields.text(at + ".persistentVolumeClaim.claimName");
                boolean readOnly = fields.bool(at + ".persistentVolumeClaim.readOnly", false);
                Path claimDir = claims.get(claim);
                if (claimDir == null || !Files.isDirectory(claimDir)) {
                    throw new IllegalStateException("Pending: PersistentVolumeClaim " + claim + " (volume " + name
                            + ") has no directory: the test gives it with claim(\"" + claim + "\", dir)");
                }
                volume = new HostVolume(claimDir, readOnly, null);
                if (fsGroup != null && !readOnly) {
                    VolumeOwnership.apply(claimDir, fsGroup, false, changePolicy);
                }
            } else if (!fields.get(at + ".emptyDir").isMissingNode()) {
                String medium = fields.text(at + ".emptyDir.medium");
                if (medium != null && !medium.isEmpty()) {
                    throw new IllegalStateException("emptyDir " + name + " with medium " + medium + ": only the node's "
                            + "disk is translated");
                }
                mkdirs(dir, 0777);
                volume = new HostVolume(dir, false, fields.text(at + ".emptyDir.sizeLimit"));
                if (fsGroup != null) {
                    VolumeOwnership.apply(dir, fsGroup, false, changePolicy);
                }
            } else if (!fields.get(at + ".secret").isMissingNode()) {
                secret(fields, at + ".secret", name, dir, secrets);
                volume = new HostVolume(dir, true, null);
                if (fsGroup != null) {
                    VolumeOwnership.apply(dir, fsGroup, true, null);
                }
            } else {
                throw new IllegalStateException(
                        "volume " + name + " is of a kind this translation does not make: " + fields.get(at));
            }
            volumes.put(name, volume);
        }
        return volumes;
    }

    /** The ServiceAccount's token, the cluster's CA and the pod's namespace, as the projected {@code kube-api-access-*}. */
    static HostVolume serviceAccount(Path podDir, ClusterAccess cluster, String namespace, Long fsGroup) {
        Path dir = podDir.resolve("volumes").resolve("kube-api-access");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("token", cluster.token().getBytes(StandardCharsets.UTF_8));
        files.put("ca.crt", cluster.caPem().getBytes(StandardCharsets.UTF_8));
        files.put("namespace", namespace.getBytes(StandardCharsets.UTF_8));
        Map<String, Integer> modes = new LinkedHashMap<>();
        files.keySet().forEach(f -> modes.put(f, 0644));
        ProjectedFiles.write(dir, files, modes);
        if (fsGroup != null) {
            VolumeOwnership.apply(dir, fsGroup, true, null);
        }
        return new HostVolume(dir, true, null);
    }

    private static void secret(
            TemplateFields fields, String at, String volume, Path dir, Map<String, Map<String, byte[]>> secrets) {
        String secretName = fields.text(at + ".secretName");
        Long defaultMode = fields.number(at + ".defaultMode");
        int mode = defaultMode == null ? 0644 : defaultMode.intValue();
        boolean optional = fields.bool(at + ".optional", false);
        Map<String, byte[]> secret = secrets.get(secretName);
        if (secret == null && !optional) {
            throw new IllegalStateException("ContainerCreating: Secret " + secretName + " (volume " + volume
                    + ") does not exist: the test gives it with secret(\"" + secretName + "\", keys)");
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        Map<String, Integer> modes = new LinkedHashMap<>();
        int items = fields.size(at + ".items");
        if (items == 0) {
            for (Map.Entry<String, byte[]> key : (secret == null ? Map.<String, byte[]>of() : secret).entrySet()) {
                files.put(key.getKey(), key.getValue());
                modes.put(key.getKey(), mode);
            }
        }
        for (int i = 0; i < items; i++) {
            String item = at + ".items[" + i + "]";
            String key = fields.text(item + ".key");
            String path = fields.text(item + ".path");
            Long itemMode = fields.number(item + ".mode");
            byte[] value = secret == null ? null : secret.get(key);
            if (value == null) {
                throw new IllegalStateException("ContainerCreating: Secret " + secretName + " has no key " + key
                        + " (volume " + volume + ", items)");
            }
            files.put(path, value);
            modes.put(path, itemMode == null ? mode : itemMode.intValue());
        }
        ProjectedFiles.write(dir, files, modes);
    }

    private static void mkdirs(Path dir, int mode) {
        try {
            Files.createDirectories(dir);
            Files.setAttribute(dir, "unix:mode", mode);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes under a directory (its files' sizes), as the kubelet's eviction manager measures an emptyDir. */
    static long usedBytes(Path dir) {
        try (var files = Files.walk(dir)) {
            long sum = 0;
            for (Iterator<Path> it = files.iterator(); it.hasNext(); ) {
                Path p = it.next();
                try {
                    if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        sum += Files.size(p);
                    }
                } catch (IOException gone) {
                    // removed while walked: the worker cleans up as it goes
                }
            }
            return sum;
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}

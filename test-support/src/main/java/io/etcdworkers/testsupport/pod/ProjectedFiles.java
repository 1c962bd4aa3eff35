package io.etcdworkers.testsupport.pod;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Files of a Secret (or a projected volume) laid out as a kubelet's atomic writer lays them out:
 * the files in a timestamped directory {@code ..<time>}, a symlink {@code ..data} to it, and for each
 * top-level name a symlink {@code name -> ..data/name}; each file with its own mode. So a program that
 * lists the directory sees what it would see in a pod (the two {@code ..} entries included).
 */
final class ProjectedFiles {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy_MM_dd_HH_mm_ss.SSSSSSSSS");

    private ProjectedFiles() {}

    /**
     * @param files each file's path under the volume and its content
     * @param modes each file's mode (the item's {@code mode}, else the volume's {@code defaultMode})
     */
    static void write(Path volume, Map<String, byte[]> files, Map<String, Integer> modes) {
        try {
            Files.createDirectories(volume);
            String stamp = ".." + LocalDateTime.now().format(TIMESTAMP);
            Path data = Files.createDirectory(volume.resolve(stamp));
            Files.setAttribute(data, "unix:mode", 0755);
            Set<String> topLevel = new LinkedHashSet<>();
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                Path target = data.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, file.getValue());
                Files.setAttribute(target, "unix:mode", modes.get(file.getKey()));
                topLevel.add(Path.of(file.getKey()).getName(0).toString());
            }
            Files.createSymbolicLink(volume.resolve("..data"), Path.of(stamp));
            for (String name : topLevel) {
                Files.createSymbolicLink(volume.resolve(name), Path.of("..data").resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the projected files of " + volume, e);
        }
    }
}

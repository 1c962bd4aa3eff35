package io.etcdworkers.bench.measure;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.stream.Stream;

/**
 * The size of the scratch database file, named exactly or by a glob (both workers
 * verify in a scratch dir whose name they choose: {@code .../scratch/restore-*&#47;verify.etcd/member/snap/db}).
 */
final class DbFile {
    private DbFile() {}

    static long size(Path file) {
        String text = file.toString();
        int star = text.indexOf('*');
        if (star < 0) {
            return file.toFile().length();
        }
        Path base = Path.of(text.substring(0, text.lastIndexOf('/', star)));
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + text);
        try (Stream<Path> paths = Files.walk(base, 8)) {
            return paths.filter(matcher::matches)
                    .mapToLong(p -> p.toFile().length())
                    .max()
                    .orElse(0);
        } catch (IOException | RuntimeException gone) {
            // the scratch dir appears and disappears during the run: nothing to sample now
            return 0;
        }
    }
}

package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.workercli.OverlappingPaths.Flagged;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The overlap rule, case by case, on real dirs and symlinks: {@code null} expected means the run
 * may go on, else the refusal's message holds each of the parts given.
 */
@Timeout(30)
class OverlappingPathsTest {
    @TempDir
    static Path root;

    @BeforeAll
    static void layout() throws IOException {
        Files.createDirectories(root.resolve("backups/bucket/etcd-main/v2"));
        Files.createDirectories(root.resolve("backups/x.part"));
        Files.createDirectories(root.resolve("data"));
        Files.createDirectories(root.resolve("scratch"));
        Files.createSymbolicLink(root.resolve("link-to-bucket"), root.resolve("backups/bucket"));
        Files.createSymbolicLink(root.resolve("link-to-backups"), root.resolve("backups"));
        Files.createSymbolicLink(root.resolve("data/link-to-scratch"), root.resolve("scratch"));
    }

    /** A case: the bucket (or null: not Local), the target (or null), the scratch dirs, the refusal expected (or null). */
    record Case(String name, String bucket, String target, List<String> scratch, List<String> refusal) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> cases = List.of(
                new Case("unrelated dirs", "backups/bucket", "data/new.etcd", List.of("scratch"), null),
                new Case(
                        "the target is the bucket",
                        "backups/bucket",
                        "backups/bucket",
                        List.of("scratch"),
                        List.of("--data-dir " + p("backups/bucket") + " is the Local bucket --store-container "
                                + p("backups/bucket"))),
                new Case(
                        "the target is the bucket's parent",
                        "backups/bucket",
                        "backups",
                        List.of("scratch"),
                        List.of("--data-dir " + p("backups") + " contains the Local bucket --store-container "
                                + p("backups/bucket"))),
                new Case(
                        "the target lies inside the bucket",
                        "backups/bucket",
                        "backups/bucket/restored.etcd",
                        List.of("scratch"),
                        List.of("lies inside the Local bucket")),
                new Case(
                        "the target is the prefix's dir",
                        "backups/bucket",
                        "backups/bucket/etcd-main",
                        List.of("scratch"),
                        List.of("lies inside the Local bucket")),
                new Case(
                        "the target is a symlink to the bucket",
                        "backups/bucket",
                        "link-to-bucket",
                        List.of("scratch"),
                        List.of("--data-dir " + p("link-to-bucket") + " is (resolved: " + p("backups/bucket")
                                + ") the Local bucket")),
                new Case(
                        "the bucket is given through a symlink",
                        "link-to-bucket",
                        "backups/bucket",
                        List.of("scratch"),
                        List.of("is (resolved: " + p("backups/bucket") + ")")),
                new Case(
                        "a new target under a symlinked parent inside the bucket",
                        "backups/bucket",
                        "link-to-backups/bucket/new/new.etcd",
                        List.of("scratch"),
                        List.of("lies inside (resolved: " + p("backups/bucket/new/new.etcd"))),
                new Case(
                        ".. after a symlink goes where the symlink points",
                        "backups/bucket",
                        "link-to-bucket/../bucket",
                        List.of("scratch"),
                        List.of("is (resolved: " + p("backups/bucket"))),
                new Case(
                        "the target's .part is the bucket",
                        "backups/x.part",
                        "backups/x",
                        List.of("scratch"),
                        List.of("(the run writes and removes " + p("backups/x.part") + ") is the Local bucket")),
                new Case(
                        "the scratch dir is the target",
                        null,
                        "scratch",
                        List.of("scratch"),
                        List.of("--scratch-dir " + p("scratch") + " is --data-dir " + p("scratch"))),
                new Case(
                        "the scratch dir lies inside the target",
                        null,
                        "data",
                        List.of("data/scratch"),
                        List.of("--scratch-dir " + p("data/scratch") + " lies inside --data-dir " + p("data"))),
                new Case(
                        "the WAL dir lies inside the target",
                        "backups/bucket",
                        "data",
                        List.of("scratch", "data/wal"),
                        List.of("--scratch-wal-dir " + p("data/wal") + " lies inside --data-dir " + p("data"))),
                new Case(
                        "a symlink inside the target leads to the scratch dir",
                        null,
                        "data",
                        List.of("data/link-to-scratch"),
                        List.of("--scratch-dir " + p("data/link-to-scratch") + " lies inside --data-dir")),
                new Case(
                        "a drill: the target inside the scratch dir",
                        "backups/bucket",
                        "scratch/drill/new.etcd",
                        List.of("scratch"),
                        null),
                new Case(
                        "the scratch dir lies inside the bucket",
                        "backups/bucket",
                        "data/new.etcd",
                        List.of("backups/bucket/etcd-main/v2/scratch"),
                        List.of("--scratch-dir " + p("backups/bucket/etcd-main/v2/scratch")
                                + " lies inside the Local bucket")),
                new Case("the bucket inside the scratch dir", "backups/bucket", "data/new.etcd", List.of("."), null),
                new Case(
                        "a compaction: no target, the WAL dir is the bucket",
                        "backups/bucket",
                        null,
                        List.of("scratch", "link-to-bucket"),
                        List.of("--scratch-wal-dir " + p("link-to-bucket") + " is (resolved: " + p("backups/bucket")
                                + ") the Local bucket")),
                new Case(
                        "every overlap is named",
                        "backups/bucket",
                        "backups",
                        List.of("backups/s", "backups/w"),
                        List.of(
                                "contains the Local bucket",
                                "--scratch-dir " + p("backups/s") + " lies inside --data-dir",
                                "--scratch-wal-dir " + p("backups/w") + " lies inside --data-dir")));
        return cases.stream().map(Arguments::of);
    }

    private static String p(String relative) {
        return root.resolve(relative).toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusesExactlyTheOverlaps(Case c) {
        Optional<Flagged> bucket =
                Optional.ofNullable(c.bucket()).map(b -> new Flagged("--store-container", root.resolve(b)));
        Optional<Flagged> target = Optional.ofNullable(c.target()).map(t -> new Flagged("--data-dir", root.resolve(t)));
        List<Flagged> scratch = new ArrayList<>();
        for (int i = 0; i < c.scratch().size(); i++) {
            scratch.add(new Flagged(
                    i == 0 ? "--scratch-dir" : "--scratch-wal-dir",
                    root.resolve(c.scratch().get(i))));
        }
        if (c.refusal() == null) {
            assertThatCode(() -> OverlappingPaths.refuse(bucket, target, scratch))
                    .doesNotThrowAnyException();
            return;
        }
        assertThatThrownBy(() -> OverlappingPaths.refuse(bucket, target, scratch))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage()).contains(c.refusal());
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void comparingTouchesNothing(Case c) throws IOException {
        List<Path> before;
        try (Stream<Path> walk = Files.walk(root)) {
            before = walk.sorted().toList();
        }
        try {
            refusesExactlyTheOverlaps(c);
        } finally {
            try (Stream<Path> walk = Files.walk(root)) {
                assertThat(walk.sorted().toList()).isEqualTo(before);
            }
        }
    }
}

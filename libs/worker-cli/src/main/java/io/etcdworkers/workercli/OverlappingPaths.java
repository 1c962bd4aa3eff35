package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.rebuild.RebuildConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses a run whose paths overlap so that what it writes or deletes would take something it
 * must keep: checked by every command before it lists, downloads or creates anything. The rule:
 * <ul>
 *   <li>the target (a restore's {@code --data-dir}, an extract's {@code --output}, and the
 *       {@code .part} and {@code .replaced} beside it, which a run creates and removes) must not be,
 *       contain or lie inside the Local bucket ({@code --store-container}'s dir, the prefix's
 *       dir under it included): {@code --force} would replace the backup being restored from;</li>
 *   <li>the scratch dir and {@code --scratch-wal-dir} must not be or lie inside the target (the run
 *       replaces the target; with {@code --force} it deletes the old one) nor inside the Local
 *       bucket (the run's files would appear among the backup's objects). A target inside the
 *       scratch dir is fine (a drill restores to {@code /scratch/drill/new.etcd}): each run works
 *       in a dir of its own under the scratch dir.</li>
 * </ul>
 * Paths are compared as the file system resolves them: each as given (its parent's symlinks
 * resolved) and as fully resolved (its own symlink too); a path that does not exist yet counts
 * as its nearest existing ancestor's real path plus the rest. Exit 2 ({@link ErrorCode#USAGE}),
 * naming both paths.
 */
public final class OverlappingPaths {
    /** A path and the flag that gave it (absolute; not normalized: {@code ..} after a symlink is resolved physically). */
    public record Flagged(String flag, Path path) {
        public Flagged {
            path = path.toAbsolutePath();
        }

        String describe() {
            return flag + " " + path;
        }
    }

    private static final String WAL_DIR_FLAG = "--scratch-wal-dir";

    private OverlappingPaths() {}

    /** The Local bucket the store flags name, if they name one. */
    public static Optional<Flagged> localBucket(WorkerContext context, StoreOptions store) {
        return new StoreFactory(context.env(), context.workingDir())
                .localBucket(store)
                .map(dir -> new Flagged(WorkerFlags.STORE_CONTAINER, dir));
    }

    /** The scratch dir and, when given, the WAL dir of a rebuild. */
    public static List<Flagged> scratchOf(RebuildConfig rebuild) {
        List<Flagged> dirs = new ArrayList<>(List.of(new Flagged(WorkerFlags.SCRATCH_DIR, rebuild.scratchDir())));
        rebuild.scratchWalDir().ifPresent(w -> dirs.add(new Flagged(WAL_DIR_FLAG, w)));
        return dirs;
    }

    /**
     * @param bucket the Local bucket's dir (empty for the other stores)
     * @param target what the run replaces (empty for a compaction and verify-backup)
     * @param scratch where the run writes its own files
     * @throws WorkerException {@link ErrorCode#USAGE} naming each overlap
     */
    public static void refuse(Optional<Flagged> bucket, Optional<Flagged> target, List<Flagged> scratch) {
        List<String> problems = new ArrayList<>();
        if (bucket.isPresent() && target.isPresent()) {
            targetAndBucket(target.get(), bucket.get()).ifPresent(problems::add);
        }
        for (Flagged s : scratch) {
            target.flatMap(t -> scratchInTarget(s, t)).ifPresent(problems::add);
            bucket.flatMap(b -> inside(s, b)
                            .map(how -> s.describe() + " " + how + " the Local bucket "
                                    + b.describe()
                                    + ": the run's scratch files would be written among the backup's objects; "
                                    + "choose a " + s.flag() + " outside the bucket"))
                    .ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            throw new WorkerException(ErrorCode.USAGE, "refusing to run: " + String.join("; ", problems));
        }
    }

    private static Optional<String> targetAndBucket(Flagged target, Flagged bucket) {
        for (Path written : withSiblings(target.path())) {
            Optional<String> how = related(written, bucket.path());
            if (how.isPresent()) {
                String what = written.equals(target.path())
                        ? target.describe()
                        : target.describe() + " (the run writes and removes " + written + ")";
                return Optional.of(what + " " + how.get() + " the Local bucket " + bucket.describe()
                        + ": the run replaces its target (--force deletes what was there), which would destroy the "
                        + "backup it reads; choose a " + target.flag() + " that neither is, contains nor lies inside "
                        + "the bucket");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> scratchInTarget(Flagged scratch, Flagged target) {
        for (Path written : withSiblings(target.path())) {
            Optional<String> how = inside(scratch.path(), written);
            if (how.isPresent()) {
                String where = written.equals(target.path())
                        ? target.describe()
                        : written + " (beside " + target.describe() + ", written and removed by the run)";
                return Optional.of(scratch.describe() + " " + how.get() + " " + where + ": the run replaces its "
                        + "target (--force deletes what was there) with the scratch files in it; choose a "
                        + scratch.flag() + " outside it");
            }
        }
        return Optional.empty();
    }

    /** The target and what the run puts beside it and removes ({@code .part}, {@code .replaced}). */
    private static List<Path> withSiblings(Path target) {
        if (target.getFileName() == null) {
            return List.of(target);
        }
        String name = target.getFileName().toString();
        return List.of(target, target.resolveSibling(name + ".part"), target.resolveSibling(name + ".replaced"));
    }

    /** "is", "lies inside" or "contains" when one of the two is the other or under it. */
    private static Optional<String> related(Path a, Path b) {
        return inside(a, b, "lies inside").or(() -> inside(b, a, "contains"));
    }

    private static Optional<String> inside(Flagged a, Flagged b) {
        return inside(a.path(), b.path(), "lies inside");
    }

    private static Optional<String> inside(Path a, Path b) {
        return inside(a, b, "lies inside");
    }

    /**
     * "is", or {@code under} when {@code a} lies under {@code b}, by any of their resolved forms;
     * a relation seen only through symlinks names the resolved paths.
     */
    private static Optional<String> inside(Path a, Path b, String under) {
        for (Path x : forms(a)) {
            for (Path y : forms(b)) {
                if (x.startsWith(y)) {
                    String how = x.equals(y) ? "is" : under;
                    boolean resolved = !x.equals(a) || !y.equals(b);
                    return Optional.of(
                            resolved ? how + " (resolved: " + x + (x.equals(y) ? "" : " under " + y) + ")" : how);
                }
            }
        }
        return Optional.empty();
    }

    /** The path with its parent's symlinks resolved, and the path with its own resolved too. */
    static Set<Path> forms(Path path) {
        Set<Path> forms = new LinkedHashSet<>();
        Path parent = path.getParent();
        forms.add(
                parent == null ? path : real(parent).resolve(path.getFileName()).normalize());
        forms.add(real(path));
        return forms;
    }

    /**
     * The path as the file system resolves it: the nearest existing ancestor's real path (symlinks
     * and {@code ..} resolved) with the rest appended as given.
     */
    static Path real(Path path) {
        Path existing = path.toAbsolutePath();
        Deque<Path> rest = new ArrayDeque<>();
        while (existing.getParent() != null && !Files.exists(existing)) {
            rest.push(existing.getFileName());
            existing = existing.getParent();
        }
        Path resolved;
        try {
            resolved = existing.toRealPath();
        } catch (IOException e) {
            resolved = existing;
        }
        for (Path name : rest) {
            resolved = resolved.resolve(name);
        }
        return resolved.normalize();
    }
}

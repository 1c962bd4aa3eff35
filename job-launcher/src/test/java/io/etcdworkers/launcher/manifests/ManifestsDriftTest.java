package io.etcdworkers.launcher.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example manifests are exactly what the launcher renders: for every {@code <name>.args} under
 * {@code manifests/}, the launcher CLI runs in-process with those arguments and its output must equal
 * the committed {@code <name>.yaml} byte for byte, and be valid against the Kubernetes schema.
 *
 * <p>After an intended change to the launcher or an {@code .args} file, regenerate with
 * {@code mvn -B -pl job-launcher -am package -DskipTests && manifests/render.sh} and review the diff.
 */
@Timeout(120)
class ManifestsDriftTest {
    static final String REGENERATE =
            "regenerate with `mvn -B -pl job-launcher -am package -DskipTests && manifests/render.sh` and review the diff";

    private static Validator validator;

    @BeforeAll
    static void loadSchema() {
        validator = Validator.newInstance();
    }

    static List<Path> argsFiles() {
        return ManifestFiles.argsFiles(ManifestFiles.ROOT);
    }

    /** What differs between the committed manifest and the launcher's rendering, if anything. */
    static Optional<String> drift(Path argsFile) throws IOException {
        Path manifest = ManifestFiles.manifestOf(argsFile);
        ManifestFiles.Run run = ManifestFiles.render(ManifestFiles.readArgs(argsFile));
        if (run.exitCode() != 0) {
            return Optional.of("job-launcher exited " + run.exitCode() + " for " + argsFile + ": " + run.err());
        }
        if (!Files.exists(manifest)) {
            return Optional.of(manifest + " is missing; " + REGENERATE);
        }
        String committed = ManifestFiles.read(manifest);
        if (committed.equals(run.out())) {
            return Optional.empty();
        }
        return Optional.of(manifest + " differs from what job-launcher renders from " + argsFile.getFileName() + "; "
                + REGENERATE + firstDifference(committed, run.out()));
    }

    private static String firstDifference(String committed, String rendered) {
        List<String> a = committed.lines().toList();
        List<String> b = rendered.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "<end of file>";
            String y = i < b.size() ? b.get(i) : "<end of file>";
            if (!x.equals(y)) {
                return "\n  first difference at line " + (i + 1) + ":\n  committed: " + x + "\n  rendered:  " + y;
            }
        }
        return "\n  (the lines are equal: line endings or the final newline differ)";
    }

    @Test
    void theExamplesTheIssueAsksForAreRenderedFromArgsFiles() {
        assertThat(argsFiles())
                .extracting(p -> ManifestFiles.ROOT.relativize(p).toString())
                .containsExactly(
                        "components/lease-renewal/lease-role.args",
                        "components/restore-example/restore-job.args",
                        "examples/compaction-cronjob.args");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("argsFiles")
    void theCommittedManifestIsWhatTheLauncherRenders(Path argsFile) throws IOException {
        assertThat(drift(argsFile)).as("drift").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("argsFiles")
    void theCommittedManifestIsSchemaValid(Path argsFile) throws IOException {
        List<String> docs = ManifestFiles.documents(ManifestFiles.read(ManifestFiles.manifestOf(argsFile)));
        assertThat(docs).hasSize(argsFile.getFileName().toString().equals("lease-role.args") ? 2 : 1);
        for (String doc : docs) {
            assertThat(ManifestFiles.schemaErrors(validator, doc))
                    .as("schema errors")
                    .isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("argsFiles")
    void theExampleIsRenderedOfflineAndDeterministically(Path argsFile) throws IOException {
        List<String> args = ManifestFiles.readArgs(argsFile);
        // render.sh runs with the real clock: a name with the time in it would drift at once;
        // lease-role only ever prints, it has no --dry-run
        if (!args.get(0).equals("lease-role")) {
            assertThat(args).contains("--dry-run");
        }
        if (args.get(0).equals("restore") || args.get(0).equals("compact")) {
            assertThat(args).anyMatch(a -> a.startsWith("--job-name"));
        }
    }

    @Test
    void anEditedManifestIsReportedAsDriftWithTheWayToRegenerate(@TempDir Path dir) throws IOException {
        Path original = argsFiles().stream()
                .filter(p -> p.getFileName().toString().equals("restore-job.args"))
                .findFirst()
                .orElseThrow();
        Path args = Files.copy(original, dir.resolve(original.getFileName()));
        Path manifest = ManifestFiles.manifestOf(args);
        String rendered = ManifestFiles.read(ManifestFiles.manifestOf(original));

        Files.writeString(manifest, rendered.replace("memory: \"2Gi\"", "memory: \"3Gi\""));
        assertThat(drift(args))
                .hasValueSatisfying(d -> assertThat(d)
                        .contains("differs from what job-launcher renders")
                        .contains("manifests/render.sh")
                        .contains("committed:")
                        .contains("3Gi"));

        Files.writeString(manifest, rendered.stripTrailing());
        assertThat(drift(args)).isPresent();

        Files.writeString(manifest, rendered);
        assertThat(drift(args)).isEmpty();
    }

    @Test
    void anArgsFileTheLauncherRejectsIsReported(@TempDir Path dir) throws IOException {
        Path args = Files.writeString(dir.resolve("bad.args"), "restore\n--etcd=etcd-main\n--dry-run\n");
        assertThat(drift(args)).hasValueSatisfying(d -> assertThat(d).contains("exited 2"));
    }
}

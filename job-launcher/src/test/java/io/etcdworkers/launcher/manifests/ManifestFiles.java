package io.etcdworkers.launcher.manifests;

import io.etcdworkers.launcher.cli.CliContext;
import io.etcdworkers.launcher.cli.LauncherCli;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.schema.validator.ValidationMessage;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The repository's {@code manifests/} directory as the tests see it: the {@code .args} files that
 * {@code manifests/render.sh} renders, the launcher run in-process on them, and the YAML documents
 * of a file with their schema errors.
 */
final class ManifestFiles {
    /** Surefire runs in the module directory; the manifests are beside it. */
    static final Path ROOT = Path.of("..", "manifests").toAbsolutePath().normalize();
    /** Only the names of Jobs without --job-name depend on it; those would drift anyway. */
    static final Instant NOW = Instant.parse("2026-11-29T22:00:00Z");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    /** {@code apiVersion: rbac.authorization.k8s.io/v1} -> group {@code rbac}: see {@link #schemaErrors}. */
    private static final Pattern SCHEMA_GROUP =
            Pattern.compile("(?m)^apiVersion: (\"?)([a-z0-9-]+)\\.[a-z0-9.-]*k8s\\.io/");

    private ManifestFiles() {}

    /** What one launcher run printed and returned. */
    record Run(int exitCode, String out, String err) {}

    /** Every {@code <name>.args} under {@code root}, sorted, as render.sh finds them. */
    static List<Path> argsFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".args") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The manifest an {@code .args} file renders to: {@code <name>.yaml} next to it. */
    static Path manifestOf(Path argsFile) {
        String name = argsFile.getFileName().toString();
        return argsFile.resolveSibling(name.substring(0, name.length() - ".args".length()) + ".yaml");
    }

    /** One argument per line, taken as is: the same split as render.sh's {@code mapfile -t}. */
    static List<String> readArgs(Path argsFile) throws IOException {
        return Files.readAllLines(argsFile, StandardCharsets.UTF_8);
    }

    /** Runs the launcher CLI in-process with no LAUNCHER_* environment and no cluster. */
    static Run render(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext ctx = new CliContext(
                Map.of(),
                Clock.fixed(NOW, ZoneOffset.UTC),
                context -> {
                    throw new IllegalStateException(
                            "an example manifest must be rendered with --dry-run, without a cluster");
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        int code = LauncherCli.execute(ctx, args.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** The YAML documents of a file (split on {@code ---} lines), empty ones left out. */
    static List<String> documents(String yaml) {
        return Arrays.stream(yaml.split("(?m)^---[ \\t]*$"))
                .filter(doc -> doc.lines()
                        .anyMatch(l -> !l.isBlank() && !l.stripLeading().startsWith("#")))
                .toList();
    }

    static HasMetadata object(String document) {
        return SERIALIZATION.unmarshal(document, HasMetadata.class);
    }

    /**
     * ERROR-level messages of the Kubernetes OpenAPI schema validation, one a line; empty if valid.
     *
     * <p>The validator (7.5.2) finds the schema of {@code batch/v1} or {@code v1} objects, but for a
     * dotted group it looks up a name that does not exist ({@code rbac.authorization.k8s.io/v1 Role}
     * becomes {@code io.k8s.authorization.rbac.v1.Role}, not {@code io.k8s.api.rbac.v1.Role}) and then
     * reports nothing at all. So the group is cut to its first segment first, which is the name the
     * schema uses; {@code apiVersion} is a plain string in the schema, so nothing else changes.
     * KustomizationTest checks that an unknown field is reported for every kind in the manifests.
     */
    static String schemaErrors(Validator validator, String document) throws IOException {
        String lookup = SCHEMA_GROUP.matcher(document).replaceAll("apiVersion: $1$2/");
        return validator.validate(lookup).getMessages().stream()
                .filter(m -> m.getLevel() == ValidationMessage.Level.ERROR)
                .map(m -> m.getSchema() + ": " + m.getMessage())
                .collect(Collectors.joining("\n"));
    }
}

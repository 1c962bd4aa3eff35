package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.schema.validator.ValidationMessage;
import io.fabric8.kubernetes.schema.validator.ValidationReport;
import io.fabric8.kubernetes.schema.validator.Validator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rendered object, and every golden file, validates against the Kubernetes OpenAPI schema.
 *
 * <p>The validator (7.5.2) reads YAML text with its own Jackson 2 and knows nothing of fabric8's
 * model classes, so it coexists with fabric8 8.0 (Jackson 3): objects are rendered to YAML first,
 * which is also exactly what {@code kubectl apply} receives.
 */
@Timeout(120)
class KubernetesSchemaTest {
    private static Validator validator;

    @BeforeAll
    static void loadSchema() {
        validator = Validator.newInstance();
    }

    static Stream<String> cases() {
        return GoldenCases.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theRenderedObjectIsValid(String name) throws IOException {
        for (var object : GoldenCases.render(name)) {
            assertValid(GoldenCases.yaml(object));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theGoldenFileIsValid(String name) throws IOException {
        // one document at a time: a members-* case holds one Job per member
        for (String doc : Files.readString(GoldenCases.expected(name), StandardCharsets.UTF_8)
                .split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                assertValid(doc);
            }
        }
    }

    @Test
    void anUnknownFieldIsAnError() throws IOException {
        String yaml = GoldenCases.yaml(GoldenCases.render("restore-s3"))
                .replace("  backoffLimit: 2\n", "  backoffLimit: 2\n  backofLimit: 3\n");
        assertThat(errors(yaml)).contains("backofLimit");
    }

    @Test
    void anUnknownFieldDeepInACronJobsPodTemplateIsAnError() throws IOException {
        String yaml = GoldenCases.yaml(GoldenCases.render("cronjob-s3"))
                .replace("readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true");
        assertThat(errors(yaml)).contains("readOnlyRootFileSystem");
    }

    @Test
    void aWrongTypeIsAnError() throws IOException {
        String yaml = GoldenCases.yaml(GoldenCases.render("restore-s3"))
                .replace("activeDeadlineSeconds: 10800", "activeDeadlineSeconds: \"three hours\"");
        assertThat(errors(yaml)).contains("activeDeadlineSeconds");
    }

    @Test
    void aMissingRequiredFieldIsAnError() throws IOException {
        String yaml = GoldenCases.yaml(GoldenCases.render("restore-s3")).replace("        name: \"worker\"\n", "");
        assertThat(errors(yaml)).contains("name");
    }

    private static void assertValid(String yaml) throws IOException {
        assertThat(errors(yaml)).as("schema errors").isEmpty();
    }

    private static String errors(String yaml) throws IOException {
        ValidationReport report = validator.validate(yaml);
        return report.getMessages().stream()
                .filter(m -> m.getLevel() == ValidationMessage.Level.ERROR)
                .map(m -> m.getSchema() + ": " + m.getMessage())
                .collect(Collectors.joining("\n"));
    }
}

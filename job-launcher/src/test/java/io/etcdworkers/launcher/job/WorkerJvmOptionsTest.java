package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.WorkerJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The workers' JVM options are the same wherever a worker starts: in a Job (checked on every
 * golden case by {@link SafeDefaultsTest}), in the image by default, and by hand with the
 * checkout's argument file, which the JVM itself must read as intended.
 */
class WorkerJvmOptionsTest {
    /** The checkout's root: the module's parent (Maven runs the tests in the module's dir). */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theImagesDefaultIsWhatADefaultJobSets() throws IOException {
        String toolOptions = Files.readAllLines(ROOT.resolve("Dockerfile"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("ENV JAVA_TOOL_OPTIONS="))
                .findFirst()
                .orElseThrow();
        assertThat(toolOptions)
                .isEqualTo("ENV JAVA_TOOL_OPTIONS=\"" + JobFactory.javaOptions(JobResources.defaults()) + "\"")
                .contains(WorkerJvm.JIT);
    }

    @Test
    void theImageWritesTheClassArchiveEveryJobStartsWith() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"), StandardCharsets.UTF_8);
        for (WorkerKind kind : WorkerKind.values()) {
            String jar = kind.command().get(kind.command().indexOf("-jar") + 1);
            assertThat(kind.command()).as(kind.name()).contains(WorkerJvm.classArchiveOption(jar));
            // a training run of that jar that writes the archive the command names
            assertThat(dockerfile)
                    .as(kind.name())
                    .containsPattern("-XX:ArchiveClassesAtExit="
                            + Pattern.quote(WorkerJvm.classArchiveFor(jar)) + " -jar "
                            + Pattern.quote(jar) + " ");
        }
    }

    @Test
    void theArgumentFileTheReadmeUsesSetsThemForTheJvm() throws IOException, InterruptedException {
        Path file = ROOT.resolve("worker-jvm.options");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + file,
                "-XX:+PrintFlagsFinal",
                "-version"));
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String flags = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(flags).isZero();
        for (String option : WorkerJvm.JIT) {
            String[] nameValue = option.substring("-XX:".length()).split("=");
            assertThat(flags)
                    .containsPattern(
                            "\\s" + nameValue[0] + "\\s+= " + nameValue[1] + "\\s+\\{[^}]*\\} \\{command line\\}");
        }
        assertThat(flags).containsPattern("\\sUseSerialGC\\s+= true\\s+\\{[^}]*\\} \\{command line\\}");
        assertThat(flags).containsPattern("\\sMaxHeapSize\\s+= 268435456\\s");
    }
}

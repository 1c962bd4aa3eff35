package io.etcdworkers.testsupport.seeded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** {@link SeededTest} run by the JUnit Platform as a build runs it: case count, names, failures. */
@Timeout(60)
class SeededTestRunTest {
    static final Set<Long> SEEDS = ConcurrentHashMap.newKeySet();

    @Test
    void runsTriesCasesNamedByTheirSeeds() {
        SEEDS.clear();
        Results results = run(Passing.class);

        assertThat(results.passed).hasSize(25).allMatch(name -> name.matches("\\[\\d+] seed=-?\\d+"));
        assertThat(results.passed.stream().map(name -> Long.parseLong(name.substring(name.indexOf('=') + 1))))
                .as("the seeds the cases drew from")
                .containsExactlyInAnyOrderElementsOf(SEEDS)
                .hasSize(25);
    }

    @Test
    void aFailureNamesItsSeedAndHowToRerunIt() {
        Results results = run(Failing.class);

        assertThat(results.failures).hasSize(3).allSatisfy(failure -> {
            assertThat(failure).isInstanceOf(AssertionError.class);
            assertThat(failure.getMessage())
                    .matches("(?s)seed=(-?\\d+) failed; rerun it alone with "
                            + "-Dtest=Failing#alwaysFails -Dseed=\\1: java.lang.IllegalStateException: drew -?\\d+");
            assertThat(failure.getCause()).isInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void aPinnedSeedRunsOneCase() {
        SEEDS.clear();
        Results results = run(Passing.class, "987654321");

        assertThat(results.passed).containsExactly("[1] seed=987654321");
        assertThat(SEEDS).containsExactly(987654321L);
    }

    private static Results run(Class<?> testClass) {
        return run(testClass, null);
    }

    /** Runs the class with the seed property set to {@code pinned}, or cleared, as a build would. */
    private static Results run(Class<?> testClass, String pinned) {
        String before = System.getProperty(SeededCases.SEED_PROPERTY);
        setSeedProperty(pinned);
        try {
            Results results = new Results();
            Launcher launcher = LauncherFactory.create();
            launcher.execute(
                    LauncherDiscoveryRequestBuilder.request()
                            .selectors(selectClass(testClass))
                            .build(),
                    results);
            return results;
        } finally {
            setSeedProperty(before);
        }
    }

    private static void setSeedProperty(String value) {
        if (value == null) {
            System.clearProperty(SeededCases.SEED_PROPERTY);
        } else {
            System.setProperty(SeededCases.SEED_PROPERTY, value);
        }
    }

    /** What the platform reported about the cases (the invocations, not their containers). */
    private static final class Results implements TestExecutionListener {
        final List<String> passed = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (!id.isTest()) {
                return;
            }
            if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                passed.add(id.getDisplayName());
            } else {
                failures.add(result.getThrowable().orElseThrow());
            }
        }
    }

    /** Run only through {@link #run}: Surefire leaves nested classes out. */
    static class Passing {
        @SeededTest(tries = 25)
        void recordsItsSeed(SeededCase c) {
            SEEDS.add(c.seed());
        }
    }

    static class Failing {
        @SeededTest(tries = 3)
        void alwaysFails(SeededCase c) {
            throw new IllegalStateException("drew " + c.anyLong());
        }
    }
}

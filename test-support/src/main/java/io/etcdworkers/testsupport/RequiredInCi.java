package io.etcdworkers.testsupport;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (an emulator, a system library) and cannot find: in CI
 * ({@code CI=true}) the test fails, since .ci/run installs it and the tests must run; elsewhere the
 * test is skipped, saying what to install.
 */
public final class RequiredInCi {
    private RequiredInCi() {}

    /**
     * Fails (CI) or aborts (elsewhere) the calling test; never returns normally.
     *
     * @param message what is missing and how to get it
     * @param tests the tests that need it, for the failure ("the ABS tests")
     */
    public static void missing(String message, String tests) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(message + " (CI=true: " + tests + " must run)");
        }
        // Surefire reports a class aborted in @BeforeAll as "Tests run: 0" without the reason: say it here.
        System.err.println("SKIPPED (not in CI): " + message);
        Assumptions.abort(message);
    }
}

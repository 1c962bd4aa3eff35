package io.etcdworkers.testsupport.seeded;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * Puts the failed case's seed and the command line that reruns it at the head of the failure, where
 * a build log shows it (Surefire names a case by its index, not by its display name).
 */
final class SeedInFailure implements InvocationInterceptor {

    @Override
    public void interceptTestTemplateMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        try {
            invocation.proceed();
        } catch (TestAbortedException skipped) {
            throw skipped;
        } catch (Throwable failure) {
            SeededCase seeded = call.getArguments().stream()
                    .filter(SeededCase.class::isInstance)
                    .map(SeededCase.class::cast)
                    .findFirst()
                    .orElse(null);
            if (seeded == null) {
                throw failure;
            }
            Method method = call.getExecutable();
            throw new AssertionError(
                    seeded + " failed; rerun it alone with -Dtest="
                            + method.getDeclaringClass().getSimpleName() + "#" + method.getName() + " -D"
                            + SeededCases.SEED_PROPERTY + "=" + seeded.seed() + ": " + failure,
                    failure);
        }
    }
}

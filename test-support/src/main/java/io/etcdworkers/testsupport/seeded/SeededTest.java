package io.etcdworkers.testsupport.seeded;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * A randomized test: the method runs {@link #tries()} times, each time with a fresh {@link SeededCase}
 * whose values follow from its seed alone. The seed is in each case's name ({@code [17] seed=-42...})
 * and in the message of a failure; {@code -Dseed=-42...} runs only that case again (with
 * {@code -Dtest=Class#method}: only that case of that method). Without it, each run draws new seeds.
 * A class-level {@code @Timeout} applies to each case.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ParameterizedTest(name = "[{index}] {0}")
@ArgumentsSource(SeededCases.class)
@ExtendWith(SeedInFailure.class)
public @interface SeededTest {
    /** How many cases (seeds) to run. */
    int tries();
}

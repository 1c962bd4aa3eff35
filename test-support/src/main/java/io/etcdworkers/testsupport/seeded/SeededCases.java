package io.etcdworkers.testsupport.seeded;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.AnnotationConsumer;
import org.junit.jupiter.params.support.ParameterDeclarations;

/**
 * The cases of a {@link SeededTest}: {@code tries} seeds drawn anew each run, or the one the system
 * property {@value #SEED_PROPERTY} names (to rerun a failed case).
 */
public final class SeededCases implements ArgumentsProvider, AnnotationConsumer<SeededTest> {
    /** The system property that pins every seeded test to one seed. */
    public static final String SEED_PROPERTY = "seed";

    private int tries;

    @Override
    public void accept(SeededTest test) {
        if (test.tries() < 1) {
            throw new IllegalArgumentException("tries must be at least 1, not " + test.tries());
        }
        tries = test.tries();
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters, ExtensionContext context) {
        return seeds(tries, System.getProperty(SEED_PROPERTY)).mapToObj(seed -> Arguments.of(new SeededCase(seed)));
    }

    /** {@code tries} fresh seeds, or only {@code pinned} when it is set. */
    static LongStream seeds(int tries, String pinned) {
        if (pinned != null && !pinned.isBlank()) {
            return LongStream.of(Long.parseLong(pinned.strip()));
        }
        return new SplittableRandom().longs(tries);
    }
}

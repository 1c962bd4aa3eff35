package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.WorkerException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Runs a command's work and publishes its one result JSON whatever happens: the work fills the
 * result and returns the exit code; a failure is classified ({@link WorkerFailures}), written
 * into the result, published, and rethrown for the exit code.
 */
public final class ResultRun {

    /** The command's work: fill {@code result}, return the exit code. */
    @FunctionalInterface
    public interface Work {
        int run(ObjectNode result) throws InterruptedException;
    }

    private ResultRun() {}

    /**
     * @param droppable result fields that may be dropped, first first, to fit the termination message
     */
    public static int run(WorkerContext context, String kind, Path resultFile, List<String> droppable, Work work)
            throws InterruptedException {
        return run(context, kind, resultFile, droppable, new MetricsOptions(), work);
    }

    /** As above; with {@code --metrics-pushgateway} the published result's figures are pushed there too. */
    public static int run(
            WorkerContext context,
            String kind,
            Path resultFile,
            List<String> droppable,
            MetricsOptions metrics,
            Work work)
            throws InterruptedException {
        Instant started = context.clock().instant();
        ObjectNode result = ResultJson.start(kind);
        ResultReporter reporter =
                new ResultReporter(context.out(), Optional.ofNullable(resultFile), context.terminationLog());
        try {
            int code = work.run(result);
            result.put(
                    "durationSeconds",
                    ResultJson.seconds(Duration.between(started, context.clock().instant())));
            reporter.publish(result, droppable);
            metrics.pushgateway().ifPresent(url -> MetricsPush.push(url, result, context.env()));
            return code;
        } catch (InterruptedException | RuntimeException | OutOfMemoryError e) {
            // an exhausted heap too: the work's data is garbage once unwound, and its cleanup has run
            WorkerException failure = WorkerFailures.of(e);
            ResultJson.failed(result, failure);
            result.put(
                    "durationSeconds",
                    ResultJson.seconds(Duration.between(started, context.clock().instant())));
            reporter.publish(result, droppable);
            metrics.pushgateway().ifPresent(url -> MetricsPush.push(url, result, context.env()));
            throw failure;
        }
    }
}

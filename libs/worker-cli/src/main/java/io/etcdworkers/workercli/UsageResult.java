package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The result JSON of a run refused before its work started (a flag picocli could not parse, no
 * command): outcome failed, error code USAGE and the message, published like every other result
 * (stdout, {@code --result-file} when the arguments name one, the termination log), so a caller
 * that reads one result per run gets one here too.
 */
final class UsageResult {
    static final String RESULT_FILE = "--result-file";

    private UsageResult() {}

    /**
     * @param kind the command that refused the arguments
     * @param hasResultFile whether that command takes {@code --result-file}
     * @param args the command line as given, searched for {@code --result-file}
     */
    static void publish(WorkerContext context, String kind, String message, boolean hasResultFile, String[] args) {
        ObjectNode result = ResultJson.start(kind);
        ResultJson.failed(result, new WorkerException(ErrorCode.USAGE, message));
        result.put("durationSeconds", 0.0);
        Optional<Path> resultFile = hasResultFile ? resultFile(context, args) : Optional.empty();
        new ResultReporter(context.out(), resultFile, context.terminationLog()).publish(result, List.of());
    }

    /** {@code --result-file FILE} or {@code --result-file=FILE} in the arguments, else its environment twin. */
    static Optional<Path> resultFile(WorkerContext context, String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(RESULT_FILE) && i + 1 < args.length) {
                return Optional.of(Path.of(args[i + 1]));
            }
            if (args[i].startsWith(RESULT_FILE + "=")) {
                return Optional.of(Path.of(args[i].substring(RESULT_FILE.length() + 1)));
            }
        }
        return Optional.ofNullable(context.env().get(EnvDefaultProvider.variableFor(RESULT_FILE)))
                .filter(file -> !file.isBlank())
                .map(Path::of);
    }
}

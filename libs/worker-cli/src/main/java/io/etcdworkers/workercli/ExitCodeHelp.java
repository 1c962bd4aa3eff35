package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * The exit codes in a command's {@code --help}, written from the contract's {@link ErrorCode}: a
 * copy in the annotation had already drifted from the codes the workers exit with. Annotations take
 * only constants, so the list is set on the built spec (picocli's exit code section, which wraps a
 * long meaning under itself).
 */
public final class ExitCodeHelp {
    /** Short enough for picocli's 80 columns. */
    static final String HEADING = "%nExit codes (\"retry\": running it again may help; see docs/reference.md):%n";

    private ExitCodeHelp() {}

    /**
     * @param success what exit 0 means for this command
     * @param codes   the codes the command can end with
     */
    public static void addTo(CommandLine command, String success, Collection<ErrorCode> codes) {
        command.getCommandSpec().usageMessage().exitCodeListHeading(HEADING).exitCodeList(list(success, codes));
    }

    /** Code, name and "retry" where a rerun may help -> the meaning; ascending. */
    static Map<String, String> list(String success, Collection<ErrorCode> codes) {
        Map<String, String> list = new LinkedHashMap<>();
        list.put(key(0, "", false), escaped(success));
        codes.stream()
                .sorted(Comparator.comparingInt(ErrorCode::exitCode))
                .forEach(c -> list.put(key(c.exitCode(), c.name(), c.retryable()), escaped(c.meaning())));
        return list;
    }

    private static String key(int code, String name, boolean retryable) {
        return String.format("%2d  %-19s %s", code, name, retryable ? "retry" : "")
                .stripTrailing();
    }

    /** Picocli formats the text: a '%' in a meaning must not be taken for a conversion. */
    private static String escaped(String text) {
        return text.replace("%", "%%");
    }
}

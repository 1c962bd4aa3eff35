package io.etcdworkers.launcher.kube;

import java.util.Objects;
import java.util.Optional;

/** The launcher's one exception type; its {@link LauncherError} owns the CLI exit code. */
public class LauncherException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LauncherError error;
    private final String help;

    public LauncherException(LauncherError error, String message) {
        this(error, message, null, null);
    }

    public LauncherException(LauncherError error, String message, Throwable cause) {
        this(error, message, cause, null);
    }

    /** @param help one line on what to do, printed under the message; null: none */
    public LauncherException(LauncherError error, String message, Throwable cause, String help) {
        super(message, cause);
        this.error = Objects.requireNonNull(error, "error");
        this.help = help;
    }

    public LauncherError error() {
        return error;
    }

    /** What to do about it, in one line, when the message alone does not say. */
    public Optional<String> help() {
        return Optional.ofNullable(help);
    }

    /** The same failure with {@code line} as what to do about it. */
    public LauncherException withHelp(String line) {
        LauncherException e = new LauncherException(error, getMessage(), getCause(), line);
        e.setStackTrace(getStackTrace());
        return e;
    }
}

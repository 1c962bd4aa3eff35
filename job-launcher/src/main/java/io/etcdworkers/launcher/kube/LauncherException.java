package io.etcdworkers.launcher.kube;

import java.util.Objects;

/** The launcher's one exception type; its {@link LauncherError} owns the CLI exit code. */
public class LauncherException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LauncherError error;

    public LauncherException(LauncherError error, String message) {
        super(message);
        this.error = Objects.requireNonNull(error, "error");
    }

    public LauncherException(LauncherError error, String message, Throwable cause) {
        super(message, cause);
        this.error = Objects.requireNonNull(error, "error");
    }

    public LauncherError error() {
        return error;
    }
}

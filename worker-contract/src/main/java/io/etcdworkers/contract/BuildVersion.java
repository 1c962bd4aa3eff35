package io.etcdworkers.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build, as the Maven build wrote it into {@code build-version.properties}: the
 * same for both workers and the launcher, in their {@code --version}, the result JSON and the
 * metrics.
 */
public final class BuildVersion {
    static final String RESOURCE = "build-version.properties";
    /** What a class path without the built resource (an IDE's own compile) reports. */
    static final String UNKNOWN = "unknown (not built by Maven)";

    private static final String CURRENT = read();

    private BuildVersion() {}

    /** The project version, e.g. {@code 0.1.0} or {@code 0.2.0-SNAPSHOT}. */
    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            String version = p.getProperty("version", "").strip();
            return version.isEmpty() || version.startsWith("${") ? UNKNOWN : version;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE, e);
        }
    }
}

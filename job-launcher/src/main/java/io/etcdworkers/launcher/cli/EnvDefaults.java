package io.etcdworkers.launcher.cli;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option's environment twin: {@code --store-prefix} is {@code LAUNCHER_STORE_PREFIX}.
 * A flag on the command line wins; without either, the option's own default applies.
 */
final class EnvDefaults implements IDefaultValueProvider {
    static final String PREFIX = "LAUNCHER_";

    private final Map<String, String> env;

    EnvDefaults(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String defaultValue(ArgSpec spec) {
        if (spec instanceof OptionSpec option && option.longestName().startsWith("--")) {
            return env.get(envName(option.longestName()));
        }
        return null;
    }

    static String envName(String longOption) {
        return PREFIX + longOption.substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
    }
}

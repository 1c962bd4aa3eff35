package io.etcdworkers.integration;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A failsafe {@code <exclude>} as Surefire matches it against a test's path below the test source
 * (or classes) root: {@code **}{@code /} stands for any number of directories, none included,
 * {@code *} and {@code ?} for characters within one name.
 */
record ExcludePattern(String glob, Pattern regex) {
    static ExcludePattern of(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (glob.startsWith("**/", i)) {
                regex.append("(?:[^/]+/)*");
                i += 2;
            } else if (glob.startsWith("**", i)) {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^/]*");
            } else if (c == '?') {
                regex.append("[^/]");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new ExcludePattern(glob, Pattern.compile(regex.toString()));
    }

    boolean matches(Path relative) {
        return regex.matcher(relative.toString().replace('\\', '/')).matches();
    }
}

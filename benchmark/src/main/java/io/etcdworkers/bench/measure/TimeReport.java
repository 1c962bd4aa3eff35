package io.etcdworkers.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /usr/bin/time -v} wrote: user and system CPU of the process and every descendant
 * it waited for, and the largest resident size of any single one of them.
 *
 * @param userSeconds user CPU
 * @param systemSeconds system CPU
 * @param maxRssBytes largest single-process resident size (not the tree's sum)
 */
public record TimeReport(double userSeconds, double systemSeconds, long maxRssBytes) {

    public static TimeReport read(Path file) throws IOException {
        double user = Double.NaN;
        double sys = Double.NaN;
        long rss = -1;
        for (String line : Files.readAllLines(file)) {
            String l = line.trim();
            if (l.startsWith("User time (seconds):")) {
                user = Double.parseDouble(after(l));
            } else if (l.startsWith("System time (seconds):")) {
                sys = Double.parseDouble(after(l));
            } else if (l.startsWith("Maximum resident set size (kbytes):")) {
                rss = Long.parseLong(after(l)) * 1024;
            }
        }
        return new TimeReport(user, sys, rss);
    }

    public double cpuSeconds() {
        return userSeconds + systemSeconds;
    }

    private static String after(String line) {
        return line.substring(line.lastIndexOf(':') + 1).trim();
    }
}

package io.etcdworkers.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What else the machine is doing: the load averages of {@code /proc/loadavg} (what
 * {@code uptime} prints) and the busy CPU time of all processes from {@code /proc/stat}, so a run
 * can report how much CPU <em>other</em> processes used while it ran.
 */
public final class MachineLoad {
    private static final double TICKS_PER_SECOND = 100.0;

    private MachineLoad() {}

    /** {@code "1.23 0.98 0.80"}: the 1, 5 and 15 minute load averages. */
    public static String loadAverages() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Seconds of CPU the whole machine has been busy (all cores, not idle or iowait). */
    public static double busyCpuSeconds() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}

package io.etcdworkers.launcher.cli;

public final class JobLauncherMain {
    public static void main(String[] args) {
        System.out.println("placeholder");
    }
}

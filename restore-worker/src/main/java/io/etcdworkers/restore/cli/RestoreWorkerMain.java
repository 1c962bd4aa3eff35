package io.etcdworkers.restore.cli;

public final class RestoreWorkerMain {
    public static void main(String[] args) {
        System.out.println("placeholder");
    }
}

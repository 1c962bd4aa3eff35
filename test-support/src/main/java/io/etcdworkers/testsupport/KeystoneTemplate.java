package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Keystone's sqlite database after {@code keystone-manage db_sync} and {@code bootstrap} (the
 * admin user, project and roles), made once per test JVM in a temp dir of its own (deleted at
 * exit) and copied for each {@link SwiftServer}: the migrations and two Keystone imports cost
 * seconds that every start would otherwise pay again. Nothing in it depends on a port.
 */
final class KeystoneTemplate {
    private static Path template;

    private KeystoneTemplate() {}

    /** Copies the template database (made on first use) to {@code target}. */
    static synchronized void copyTo(SwiftBinaries bin, Path target) {
        try {
            if (template == null) {
                template = make(bin);
            }
            Files.createDirectories(target.getParent());
            Files.copy(template.resolve("keystone.db"), target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path make(SwiftBinaries bin) throws IOException {
        Path dir = Files.createTempDirectory("keystone-template-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "keystone-template-cleanup"));
        Path db = dir.resolve("keystone.db");
        Path conf = dir.resolve("keystone.conf");
        // bootstrap checks the key repositories, though it makes no token
        SwiftConfigFiles.fernetKeys(dir.resolve("fernet-keys"));
        SwiftConfigFiles.fernetKeys(dir.resolve("fernet-receipts"));
        Files.writeString(conf, """
                [DEFAULT]
                use_stderr = true
                [database]
                connection = sqlite:///%s
                [fernet_tokens]
                key_repository = %s
                [fernet_receipts]
                key_repository = %s
                [identity]
                password_hash_rounds = 4
                """.formatted(db, dir.resolve("fernet-keys"), dir.resolve("fernet-receipts")));
        // One Python for the three steps: each keystone-manage run would import Keystone again (about 2 s).
        Path script = dir.resolve("template.py");
        Files.writeString(script, SCRIPT);
        bin.run(
                dir,
                List.of(
                        bin.python().toString(),
                        script.toString(),
                        conf.toString(),
                        db.toString(),
                        SwiftServer.ADMIN_PASSWORD));
        return dir;
    }

    /**
     * A WAL-mode sqlite file (Keystone's single-threaded server and the proxy's token checks would
     * otherwise meet "database is locked"), then keystone-manage's db_sync and bootstrap, with the
     * command line parsed afresh between the two.
     */
    private static final String SCRIPT = """
            import sqlite3, sys
            conf, db, password = sys.argv[1:4]
            connection = sqlite3.connect(db)
            connection.execute('PRAGMA journal_mode=WAL')
            connection.close()
            from keystone.cmd import cli
            cli.main(argv=['keystone-manage', '--config-file', conf, 'db_sync'])
            cli.CONF.clear()
            cli.main(argv=['keystone-manage', '--config-file', conf, 'bootstrap', '--bootstrap-username', 'admin',
                           '--bootstrap-password', password, '--bootstrap-project-name', 'admin',
                           '--bootstrap-role-name', 'admin'])
            connection = sqlite3.connect(db)
            connection.execute('PRAGMA wal_checkpoint(TRUNCATE)')
            connection.close()
            """;

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temp dir the JVM leaves behind at exit: nothing to report to.
        }
    }
}

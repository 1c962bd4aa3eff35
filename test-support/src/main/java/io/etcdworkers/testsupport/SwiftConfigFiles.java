package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The files a one-node Swift and its Keystone need, all under one directory: the servers'
 * configs (loopback, one worker each, running as the test's user, no mount check), Keystone's
 * config (sqlite, fernet tokens with cheap password hashing), its fernet keys, and the script
 * that builds the three one-replica rings.
 */
final class SwiftConfigFiles {
    /** The ports of one start. */
    record Ports(int memcached, int keystone, int proxy, int account, int container, int object) {}

    private final Path dir;

    SwiftConfigFiles(Path dir) {
        this.dir = dir;
    }

    Path swiftDir() {
        return dir.resolve("swift");
    }

    Path keystoneDir() {
        return dir.resolve("keystone");
    }

    Path conf(String server) {
        return swiftDir().resolve(server + "-server.conf");
    }

    Path keystoneDb() {
        return keystoneDir().resolve("keystone.db");
    }

    /** Writes every file; the device dir is created empty. */
    void write(Ports ports, String adminPassword) {
        try {
            Files.createDirectories(dir.resolve("srv/node/d1"));
            Files.createDirectories(dir.resolve("recon"));
            Files.createDirectories(swiftDir());
            Files.createDirectories(keystoneDir());
            Files.writeString(swiftDir().resolve("swift.conf"), """
                    [swift-hash]
                    swift_hash_path_suffix = etcd-workers-tests
                    swift_hash_path_prefix = etcd-workers
                    [storage-policy:0]
                    name = Policy-0
                    default = yes
                    """);
            storage("account", ports.account());
            storage("container", ports.container());
            storage("object", ports.object());
            Files.writeString(conf("proxy"), proxy(ports, adminPassword));
            Files.writeString(keystoneDir().resolve("keystone.conf"), keystone());
            Files.writeString(swiftDir().resolve("rings.py"), RINGS);
            fernetKeys(keystoneDir().resolve("fernet-keys"));
            fernetKeys(keystoneDir().resolve("fernet-receipts"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void storage(String server, int port) throws IOException {
        Files.writeString(
                conf(server),
                common(port) + "\n[pipeline:main]\npipeline = " + server + "-server\n\n[app:" + server
                        + "-server]\nuse = egg:swift#" + server + "\n");
    }

    private String common(int port) {
        return """
                [DEFAULT]
                bind_ip = 127.0.0.1
                bind_port = %d
                workers = 0
                user = %s
                swift_dir = %s
                devices = %s
                mount_check = false
                recon_cache_path = %s
                log_level = WARNING
                """.formatted(
                port, System.getProperty("user.name"), swiftDir(), dir.resolve("srv/node"), dir.resolve("recon"));
    }

    private String proxy(Ports ports, String adminPassword) {
        String keystone = "http://127.0.0.1:" + ports.keystone();
        return common(ports.proxy()) + """

                [pipeline:main]
                pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl \
                authtoken keystoneauth tempauth copy slo dlo proxy-logging proxy-server

                [app:proxy-server]
                use = egg:swift#proxy
                account_autocreate = true

                [filter:authtoken]
                paste.filter_factory = keystonemiddleware.auth_token:filter_factory
                www_authenticate_uri = %1$s/v3
                auth_url = %1$s/v3
                auth_type = password
                project_domain_id = default
                user_domain_id = default
                project_name = admin
                username = admin
                password = %2$s
                delay_auth_decision = true
                interface = public
                region_name = RegionOne
                include_service_catalog = false
                service_token_roles_required = false
                memcached_servers = 127.0.0.1:%3$d

                [filter:keystoneauth]
                use = egg:swift#keystoneauth
                operator_roles = admin, member
                reseller_prefix = AUTH_

                [filter:tempauth]
                use = egg:swift#tempauth
                reseller_prefix = TEMP
                user_test_tester = testing .admin

                [filter:cache]
                use = egg:swift#memcache
                memcache_servers = 127.0.0.1:%3$d

                [filter:catch_errors]
                use = egg:swift#catch_errors
                [filter:gatekeeper]
                use = egg:swift#gatekeeper
                [filter:healthcheck]
                use = egg:swift#healthcheck
                [filter:proxy-logging]
                use = egg:swift#proxy_logging
                [filter:listing_formats]
                use = egg:swift#listing_formats
                [filter:bulk]
                use = egg:swift#bulk
                [filter:tempurl]
                use = egg:swift#tempurl
                [filter:copy]
                use = egg:swift#copy
                [filter:slo]
                use = egg:swift#slo
                [filter:dlo]
                use = egg:swift#dlo
                """.formatted(keystone, adminPassword, ports.memcached());
    }

    private String keystone() {
        return """
                [DEFAULT]
                use_stderr = true
                [database]
                connection = sqlite:///%1$s
                [token]
                provider = fernet
                [fernet_tokens]
                key_repository = %2$s
                [fernet_receipts]
                key_repository = %3$s
                [identity]
                password_hash_rounds = 4
                [cache]
                enabled = false
                """.formatted(
                        keystoneDb(),
                        keystoneDir().resolve("fernet-keys"),
                        keystoneDir().resolve("fernet-receipts"));
    }

    /** A key repository as {@code keystone-manage fernet_setup} makes it: a staged key 0 and a primary key 1. */
    static void fernetKeys(Path repository) throws IOException {
        Files.createDirectories(repository);
        SecureRandom random = new SecureRandom();
        for (String name : new String[] {"0", "1"}) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            Files.writeString(repository.resolve(name), Base64.getUrlEncoder().encodeToString(key));
        }
    }

    /** Builds the account, container and object rings: one device, one replica. */
    private static final String RINGS = """
            import sys
            from swift.common.ring import RingBuilder
            swift_dir = sys.argv[1]
            for name, port in zip(('account', 'container', 'object'), sys.argv[2:5]):
                builder = RingBuilder(6, 1, 1)
                builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port),
                                 'device': 'd1', 'weight': 100})
                builder.rebalance()
                builder.get_ring().save('%s/%s.ring.gz' % (swift_dir, name))
            """;
}

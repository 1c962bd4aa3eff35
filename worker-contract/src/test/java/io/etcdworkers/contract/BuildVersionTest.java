package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The version the programs report is the one the root pom builds. */
@Timeout(30)
class BuildVersionTest {

    @Test
    void theVersionIsTheRootPomsProjectVersion() throws IOException {
        String pom = Files.readString(Path.of(System.getProperty("user.dir"), "..", "pom.xml"));
        Matcher m = Pattern.compile("<artifactId>etcd-workers</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pom);
        assertThat(m.find()).as("the root pom's project version").isTrue();

        assertThat(BuildVersion.current()).isEqualTo(m.group(1)).doesNotContain("${");
    }
}

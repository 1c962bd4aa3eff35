package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdMember;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The member a data dir is restored for, from {@code etcdbrctl restore}'s flags and defaults:
 * one member, whose {@code --initial-cluster} entry must be its own; anything else is a usage
 * error (exit 2) that says what to give instead.
 */
class MemberOptionsTest {

    @Command(name = "probe")
    static final class Probe {
        @Mixin
        MemberOptions member = new MemberOptions();
    }

    private static EtcdMember member(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.member.toMember();
    }

    @Test
    void theDefaultsAreEtcdbrctlRestores() {
        EtcdMember member = member();

        assertThat(member.name()).isEqualTo("default");
        assertThat(member.peerUrl()).isEqualTo(URI.create("http://localhost:2380"));
        assertThat(member.clusterToken()).isEqualTo("etcd-cluster");
        assertThat(member.initialCluster()).isEqualTo("default=http://localhost:2380");
    }

    @Test
    void theFlagsNameTheMember() {
        EtcdMember member = member(
                "--name",
                "etcd-main-0",
                "--initial-cluster-token",
                "etcd-main",
                "--initial-advertise-peer-urls",
                "https://etcd-main-0.etcd-main-peer.prod.svc:2380");

        assertThat(member.name()).isEqualTo("etcd-main-0");
        assertThat(member.clusterToken()).isEqualTo("etcd-main");
        assertThat(member.initialCluster()).isEqualTo("etcd-main-0=https://etcd-main-0.etcd-main-peer.prod.svc:2380");
    }

    @Test
    void theOwnInitialClusterEntryGivesThePeerUrlWhenItDiffersFromTheAdvertisedOne() {
        EtcdMember member = member(
                "--name",
                "etcd-main-0",
                "--initial-cluster",
                " etcd-main-0 = https://etcd-main-0.etcd-main-peer:2380 ");

        assertThat(member.peerUrl()).isEqualTo(URI.create("https://etcd-main-0.etcd-main-peer:2380"));
    }

    @Test
    void aBlankInitialClusterIsTheDefaultOne() {
        assertThat(member("--initial-cluster", " ").initialCluster()).isEqualTo("default=http://localhost:2380");
    }

    @Test
    void aClusterOfSeveralMembersIsRecordedWholeAndTheScratchEtcdRunsAsTheMemberAlone() {
        EtcdMember member = member(
                "--name",
                "b",
                "--initial-cluster",
                "a=http://a:2380, b=http://b:2380 ,c=http://c:2380",
                "--initial-cluster-token",
                "etcd-main");

        assertThat(member.peerUrl()).isEqualTo(URI.create("http://b:2380"));
        assertThat(member.initialCluster()).isEqualTo("a=http://a:2380,b=http://b:2380,c=http://c:2380");
        assertThat(member.alone().initialCluster()).isEqualTo("b=http://b:2380");
        assertThat(member.alone().clusterToken()).isEqualTo("etcd-main");
    }

    @Test
    void anAdvertisedPeerUrlThatIsNotTheMembersClusterEntryIsRefused() {
        assertUsage(
                () -> member(
                        "--name",
                        "b",
                        "--initial-cluster",
                        "a=http://a:2380,b=http://b:2380",
                        "--initial-advertise-peer-urls",
                        "http://elsewhere:2380"),
                "is not this member's --initial-cluster entry",
                "b=http://b:2380");
        assertThat(member(
                                "--name",
                                "b",
                                "--initial-cluster",
                                "a=http://a:2380,b=http://b:2380",
                                "--initial-advertise-peer-urls",
                                "http://b:2380")
                        .peerUrl())
                .isEqualTo(URI.create("http://b:2380"));
    }

    @Test
    void anInitialClusterWithoutThisMemberOrWithAMemberTwiceIsRefused() {
        assertUsage(
                () -> member("--name", "etcd-main-0", "--initial-cluster", "etcd-main-1=http://b:2380"),
                "--initial-cluster must name this member (--name etcd-main-0=<peer URL>)",
                "etcd-main-1=http://b:2380");
        assertUsage(
                () -> member("--name", "a", "--initial-cluster", "a=http://a:2380,a=http://b:2380"), "names a twice");
    }

    @Test
    void anInitialClusterWithoutThisMemberNamesTheMembersToChooseFrom() {
        assertUsage(
                () -> member("--initial-cluster", "m1=http://a:2380,m2=http://b:2380"),
                "give as --name the member this data dir is for, one of m1, m2",
                "(without --name the member is etcd's \"default\")");
        assertUsage(
                () -> member("--name", "etcd-main-0", "--initial-cluster", "etcd-main-1=http://b:2380"),
                "give as --name the member this data dir is for, one of etcd-main-1");
    }

    @Test
    void anInitialClusterEntryWithoutAUrlIsRefused() {
        assertUsage(() -> member("--initial-cluster", "default"), "--initial-cluster entries are NAME=PEER_URL");
    }

    @Test
    void moreThanOneAdvertisedPeerUrlIsRefused() {
        assertUsage(() -> member("--initial-advertise-peer-urls", "http://a:2380,http://b:2380"), "takes one URL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://a b:2380", "not a url"})
    void aPeerUrlThatIsNoUrlIsRefusedNamingTheFlag(String url) {
        assertUsage(() -> member("--initial-advertise-peer-urls", url), "--initial-advertise-peer-urls is not a URL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost", "ftp://localhost:2380", "http://localhost:2380/path", "localhost:2380"})
    void aPeerUrlEtcdCannotAdvertiseIsAUsageError(String url) {
        assertUsage(() -> member("--initial-advertise-peer-urls", url), "peer URL must be http(s)://host:port");
    }

    @ParameterizedTest
    @ValueSource(strings = {"etcd main", "etcd,main", "a=b", ""})
    void aNameThatCannotStandInAnInitialClusterIsAUsageError(String name) {
        assertUsage(() -> member("--name", name), "member name must match");
    }

    private static void assertUsage(Runnable parse, String... messageParts) {
        assertThatThrownBy(parse::run).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code().name()).isEqualTo("USAGE");
            assertThat(e.code().exitCode()).isEqualTo(2);
            assertThat(e.getMessage()).contains(messageParts);
        });
    }
}

package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scp-like Git address {@code git@host:path} as terraform 1.11 turns it into an {@code ssh://} URL (checked
 * against it: the "Downloading" line, a failed clone's detail, the manifest and {@code modules -json}), and the
 * other sources its manifest records as URLs.
 */
class ScpLikeGitSourceTest {
    @Test
    void theScpLikeFormIsAnSshUrl() {
        assertThat(ModuleSource.scpToSsh("git@github.com:org/repo.git")).isEqualTo("ssh://git@github.com/org/repo.git");
        assertThat(ModuleSource.scpToSsh("git::git@github.com:org/repo")).isEqualTo("ssh://git@github.com/org/repo");
        // The path after the colon is the URL's whole path: an absolute one keeps one slash, a port is a directory.
        assertThat(ModuleSource.scpToSsh("git@h:/abs/r.git")).isEqualTo("ssh://git@h/abs/r.git");
        assertThat(ModuleSource.scpToSsh("git@h:~/r.git")).isEqualTo("ssh://git@h/~/r.git");
        assertThat(ModuleSource.scpToSsh("git@127.0.0.1:22/r.git")).isEqualTo("ssh://git@127.0.0.1/22/r.git");
        // The subdirectory stays; the query's arguments are sorted by name and escaped.
        assertThat(ModuleSource.scpToSsh("git@h:o/r.git//sub?ref=a/b&depth=1"))
                .isEqualTo("ssh://git@h/o/r.git//sub?depth=1&ref=a%2Fb");
        for (String other : new String[] {
            "ssh://git@h/o/r.git",
            "git::ssh://git@h/o/r.git",
            "me@h:o/r",
            "h.example:o/r.git",
            "git@h:",
            "github.com/o/r"
        }) {
            assertThat(ModuleSource.scpToSsh(other)).as(other).isNull();
        }
    }

    @Test
    void parsedItIsClonedAsTheSshUrlWithItsRefUnescaped() {
        assertThat(ModuleSource.parse("git@h:o/r.git//net?ref=a%2Fb&depth=2"))
                .isEqualTo(new ModuleSource.Git("ssh://git@h/o/r.git", "a/b", "net", 2));
        assertThat(ModuleSource.parse("git::git@h:o/r.git?ref=v1"))
                .isEqualTo(new ModuleSource.Git("ssh://git@h/o/r.git", "v1", ""));
        // Any Git URL's ref is unescaped as a URL's query is.
        assertThat(ModuleSource.parse("git::https://h/r.git?ref=release%2F1.0"))
                .isEqualTo(new ModuleSource.Git("https://h/r.git", "release/1.0", ""));
    }

    @Test
    void itIsShownAndRecordedAsTheSshUrl() {
        assertThat(ModuleSource.packageAddress("git@127.0.0.1:nope/repo.git//sub?ref=v1&depth=1"))
                .isEqualTo("git::ssh://git@127.0.0.1/nope/repo.git?depth=1&ref=v1");
        assertThat(ModuleSource.packageAddress("git::git@github.com:org/repo"))
                .isEqualTo("git::ssh://git@github.com/org/repo");
        assertThat(ModuleSource.normalized("git@127.0.0.1:org/repo.git//net?ref=main"))
                .isEqualTo("git::ssh://git@127.0.0.1/org/repo.git//net?ref=main");
        assertThat(ModuleSource.same("git::ssh://git@h/o/r.git//net", "git@h:o/r.git//net"))
                .isTrue();
        assertThat(ModuleInstaller.shownSource("git@h:o/r.git")).isEqualTo("git::ssh://git@h/o/r.git");
    }

    @Test
    void theManifestRecordsPathsAndTheGithubShorthandAsUrls() {
        assertThat(ModuleSource.normalized("/tmp/pkg//net")).isEqualTo("file:///tmp/pkg//net");
        assertThat(ModuleSource.normalized("git::/tmp/repo.git//net")).isEqualTo("git::file:///tmp/repo.git//net");
        assertThat(ModuleSource.normalized("github.com/org/repo//net?ref=main"))
                .isEqualTo("git::https://github.com/org/repo.git//net?ref=main");
        assertThat(ModuleSource.normalized("hashicorp/consul/aws"))
                .isEqualTo("registry.terraform.io/hashicorp/consul/aws");
        assertThat(ModuleSource.normalized("./local")).isEqualTo("./local");
        assertThat(ModuleSource.normalized("git::https://h/r.git?ref=b&depth=1"))
                .isEqualTo("git::https://h/r.git?ref=b&depth=1");
        // The subdirectory made clean, as Terraform records it; a "?" starts the query, for a path too.
        assertThat(ModuleSource.normalized("/tmp/pkg//nope/../ne*")).isEqualTo("file:///tmp/pkg//ne*");
        assertThat(ModuleSource.normalized("git::https://h/r.git//./a/b/?ref=v1"))
                .isEqualTo("git::https://h/r.git//a/b?ref=v1");
        assertThat(ModuleSource.normalized("git::https://h/r.git//.")).isEqualTo("git::https://h/r.git");
        assertThat(ModuleSource.normalized("git::https://h/r.git//../x")).isEqualTo("git::https://h/r.git//../x");
        assertThat(ModuleSource.parse("/tmp/pkg//n?t/../ne*"))
                .isEqualTo(new ModuleSource.LocalPackage(java.nio.file.Path.of("/tmp/pkg"), "n"));
        // The shown form keeps a registry address as written.
        assertThat(ModuleInstaller.shownSource("hashicorp/consul/aws")).isEqualTo("hashicorp/consul/aws");
    }

    @Test
    void queriesAreEscapedAsUrlQueries() {
        assertThat(ModuleSource.encodedQuery(
                        List.of(new String[] {"ref", "a b/c~*"}, new String[] {"depth", "1"}, new String[] {"a", ""})))
                .isEqualTo("a=&depth=1&ref=a+b%2Fc~%2A");
        assertThat(ModuleSource.queryPairs("ref=a%2Fb&x&&y=1+2"))
                .extracting(kv -> kv[0] + "=" + kv[1])
                .containsExactly("ref=a/b", "x=", "y=1 2");
        // An escape that does not decode is kept as written.
        assertThat(ModuleSource.queryPairs("ref=%zz")).extracting(kv -> kv[1]).containsExactly("%zz");
    }
}

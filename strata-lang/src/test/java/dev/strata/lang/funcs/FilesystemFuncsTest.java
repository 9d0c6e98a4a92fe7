package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemFuncsTest {
    @TempDir
    Path dir;

    FunctionTable t;

    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(dir.resolve("hello.txt"), "Hello World");
        Files.write(dir.resolve("bin.dat"), new byte[] {(byte) 0xff, 0});
        Files.createDirectories(dir.resolve("files/sub"));
        Files.writeString(dir.resolve("files/a.txt"), "a");
        Files.writeString(dir.resolve("files/b.tmpl"), "b");
        Files.writeString(dir.resolve("files/sub/c.txt"), "c");
        t = Functions.builtins(
                new FunctionContext(dir, Path.of("/home/me"), Clock.systemUTC(), Optional.empty(), UUID::randomUUID));
    }

    CallResult call(String name, Value... args) {
        return t.lookup(name).orElseThrow().call(args);
    }

    Value s(String x) {
        return Value.string(x);
    }

    @Test
    void fileReadsRelativeToBaseDir() {
        assertThat(call("file", s("hello.txt")).value()).isEqualTo(s("Hello World"));
        assertThat(call("filebase64", s("bin.dat")).value()).isEqualTo(s("/wA="));
        assertThat(call("fileexists", s("hello.txt")).value()).isEqualTo(Value.TRUE);
        assertThat(call("fileexists", s("nope.txt")).value()).isEqualTo(Value.FALSE);
        assertThat(call("fileexists", s("files")).isSuccess()).isFalse();
        assertThat(call("pathexpand", s("")).value()).isEqualTo(s(""));
    }

    @Test
    void fileDecodesUtf8StrictlyWhateverItHolds() throws Exception {
        // Decoded leniently first (no intermediate char buffer); a replacement character in the result
        // sends it to the strict decoder, which accepts a real U+FFFD and rejects malformed bytes.
        Files.writeString(dir.resolve("fffd.txt"), "ok \ufffd é 😀");
        assertThat(call("file", s("fffd.txt")).value()).isEqualTo(s("ok \ufffd é 😀"));
        Files.write(
                dir.resolve("late.dat"),
                new byte[] {'a', 'b', (byte) 0xc3, (byte) 0xa9, (byte) 0xed, (byte) 0xa0, (byte) 0x80});
        assertThat(call("file", s("late.dat")).isSuccess()).isFalse();
        Files.write(dir.resolve("cut.dat"), new byte[] {'a', (byte) 0xe2, (byte) 0x82});
        assertThat(call("file", s("cut.dat")).isSuccess()).isFalse();
    }

    @Test
    void fileErrors() {
        CallResult.Failure f = (CallResult.Failure) call("file", s("nope.txt"));
        assertThat(f.argIndex()).isZero();
        assertThat(f.message()).startsWith("no file exists at \"nope.txt\"; this function works only with files");
        CallResult.Failure b = (CallResult.Failure) call("file", s("bin.dat"));
        assertThat(b.message()).startsWith("contents of \"bin.dat\" are not valid UTF-8; use the filebase64 function");
        // The messages below were checked with terraform console.
        CallResult.Failure d = (CallResult.Failure) call("file", s("files"));
        assertThat(d.detail())
                .isEqualTo("Invalid value for \"path\" parameter: failed to read file: read files: is a directory.");
        CallResult.Failure e = (CallResult.Failure) call("fileexists", s("./files/"));
        assertThat(e.detail())
                .isEqualTo("Call to function \"fileexists\" failed: \"files\" is a directory, not a file.");
        CallResult.Failure h = (CallResult.Failure) call("filemd5", s("nope"));
        assertThat(h.detail()).isEqualTo("Call to function \"filemd5\" failed: open nope: no such file or directory.");
        CallResult.Failure hd = (CallResult.Failure) call("filesha256", s("."));
        assertThat(hd.detail()).isEqualTo("Call to function \"filesha256\" failed: read .: is a directory.");
        CallResult.Failure g = (CallResult.Failure) call("fileset", s("."), s("["));
        assertThat(g.detail())
                .isEqualTo(
                        "Call to function \"fileset\" failed: failed to glob pattern \"[\": syntax error in pattern.");
    }

    @Test
    void fileHashes() {
        // Known digests of "Hello World".
        assertThat(call("filemd5", s("hello.txt")).value()).isEqualTo(s("b10a8db164e0754105b7a99be72e3fe5"));
        assertThat(call("filesha1", s("hello.txt")).value()).isEqualTo(s("0a4d55a8d778e5022fab701977c5d840bbc486d0"));
        assertThat(call("filesha256", s("hello.txt")).value())
                .isEqualTo(s("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"));
        assertThat(call("filebase64sha256", s("hello.txt")).value())
                .isEqualTo(s("pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4="));
        assertThat(call("filesha512", s("hello.txt")).value())
                .isEqualTo(call("sha512", s("Hello World")).value());
        assertThat(call("filebase64sha512", s("hello.txt")).value())
                .isEqualTo(call("base64sha512", s("Hello World")).value());
    }

    @Test
    void fileset() {
        assertThat(call("fileset", s("files"), s("*.txt")).value())
                .isEqualTo(Value.set(Type.STRING, List.of(s("a.txt"))));
        assertThat(call("fileset", s("files"), s("**/*.txt")).value())
                .isEqualTo(Value.set(Type.STRING, List.of(s("a.txt"), s("sub/c.txt"))));
        assertThat(call("fileset", s("files"), s("{a,b}.*")).value())
                .isEqualTo(Value.set(Type.STRING, List.of(s("a.txt"), s("b.tmpl"))));
        assertThat(call("fileset", s("files"), s("sub/*")).value())
                .isEqualTo(Value.set(Type.STRING, List.of(s("sub/c.txt"))));
        assertThat(call("fileset", s("missing"), s("*")).value()).isEqualTo(Value.set(Type.STRING, List.of()));
    }

    @Test
    void pathFunctions() {
        assertThat(call("abspath", s("a/../b")).value()).isEqualTo(s(dir.toAbsolutePath() + "/b"));
        assertThat(call("abspath", s("/x/./y/")).value()).isEqualTo(s("/x/y"));
        assertThat(call("pathexpand", s("~/.ssh/id_rsa")).value()).isEqualTo(s("/home/me/.ssh/id_rsa"));
        assertThat(call("pathexpand", s("/etc/x")).value()).isEqualTo(s("/etc/x"));
        assertThat(call("dirname", s("/foo/bar/baz.txt")).value()).isEqualTo(s("/foo/bar"));
        assertThat(call("basename", s("/")).value()).isEqualTo(s("/"));
    }
}

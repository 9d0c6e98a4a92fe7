package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** abspath, basename, dirname, pathexpand, file, filebase64, fileexists, fileset. */
final class FilesystemFuncs {
    private FilesystemFuncs() {}

    static void register(Functions.Registry r, FunctionContext ctx) {
        r.add(pathFn("abspath", p -> {
            String s = p.startsWith("/")
                    ? p
                    : ctx.baseDir().toAbsolutePath().toString().replace('\\', '/') + "/" + p;
            return clean(s);
        }));
        r.add(pathFn("dirname", FilesystemFuncs::dirname));
        r.add(pathFn("basename", FilesystemFuncs::basename));
        r.add(pathFn("pathexpand", p -> expandHome(ctx, p)));
        r.add(Function.builder("file")
                .param("path", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    byte[] b = read(ctx, a, 0);
                    return Value.string(
                            EncodingFuncs.utf8(
                                    b,
                                    0,
                                    "contents of " + Args.q(str(a, 0))
                                            + " are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead"));
                })
                .build());
        r.add(Function.builder("filebase64")
                .param("path", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(Base64.getEncoder().encodeToString(read(ctx, a, 0))))
                .build());
        r.add(Function.builder("fileexists")
                .param("path", Type.STRING)
                .returns(Type.BOOL)
                .impl((a, t) -> {
                    Path p = resolve(ctx, str(a, 0));
                    if (!Files.exists(p)) {
                        return Value.FALSE;
                    }
                    if (Files.isRegularFile(p)) {
                        return Value.TRUE;
                    }
                    String shown = Args.q(clean(expandHome(ctx, str(a, 0))));
                    throw FunctionError.callRevealing(
                            shown + (Files.isDirectory(p) ? " is a directory, not a file" : " is not a regular file"));
                })
                .build());
        r.add(Function.builder("fileset")
                .param("path", Type.STRING)
                .param("pattern", Type.STRING)
                .returns(Type.set(Type.STRING))
                .impl((a, t) -> fileset(ctx, str(a, 0), str(a, 1)))
                .build());
    }

    private static Function pathFn(String name, java.util.function.UnaryOperator<String> f) {
        return Function.builder(name)
                .param("path", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(f.apply(str(a, 0))))
                .build();
    }

    static String expandHome(FunctionContext ctx, String p) {
        if (p.equals("~")) {
            return ctx.homeDir().toString();
        }
        if (p.startsWith("~/")) {
            return ctx.homeDir().toString() + p.substring(1);
        }
        return p;
    }

    static Path resolve(FunctionContext ctx, String p) {
        return ctx.baseDir().resolve(expandHome(ctx, p));
    }

    /** Reads the file named by argument {@code i}, with Terraform's error wording. */
    static byte[] read(FunctionContext ctx, List<Value> a, int i) {
        String name = str(a, i);
        Path p = resolve(ctx, name);
        try {
            if (Files.isDirectory(p)) {
                throw FunctionError.argRevealing(
                        i, "failed to read file: read " + clean(expandHome(ctx, name)) + ": is a directory");
            }
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            throw FunctionError.argRevealing(
                    i,
                    "no file exists at " + Args.q(name)
                            + "; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource");
        } catch (IOException e) {
            throw FunctionError.argRevealing(i, "failed to read " + Args.q(name));
        }
    }

    /** Reads a file for the hash functions, which report problems on the call, in Go's words. */
    static byte[] readForHash(FunctionContext ctx, List<Value> a, int i) {
        String shown = clean(expandHome(ctx, str(a, i)));
        Path p = resolve(ctx, str(a, i));
        try {
            if (Files.isDirectory(p)) {
                throw FunctionError.callRevealing("read " + shown + ": is a directory");
            }
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            throw FunctionError.callRevealing("open " + shown + ": no such file or directory");
        } catch (IOException e) {
            throw FunctionError.callRevealing("open " + shown + ": cannot read the file");
        }
    }

    /** Go's path.Clean. */
    static String clean(String p) {
        if (p.isEmpty()) {
            return ".";
        }
        boolean rooted = p.startsWith("/");
        List<String> out = new ArrayList<>();
        for (String seg : p.split("/")) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                } else if (!rooted) {
                    out.add("..");
                }
                continue;
            }
            out.add(seg);
        }
        String s = String.join("/", out);
        if (rooted) {
            return "/" + s;
        }
        return s.isEmpty() ? "." : s;
    }

    static String dirname(String p) {
        int i = p.lastIndexOf('/');
        return clean(i < 0 ? "" : p.substring(0, i + 1));
    }

    static String basename(String p) {
        if (p.isEmpty()) {
            return ".";
        }
        String s = p;
        while (s.length() > 1 && s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.equals("/")) {
            return "/";
        }
        int i = s.lastIndexOf('/');
        return i < 0 ? s : s.substring(i + 1);
    }

    private static Value fileset(FunctionContext ctx, String dir, String pattern) {
        Path root = resolve(ctx, dir);
        List<Pattern> segs = new ArrayList<>();
        String[] parts = clean(pattern).split("/");
        for (String part : parts) {
            segs.add(part.equals("**") ? null : globSegment(part));
        }
        List<Value> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return Value.set(Type.STRING, out);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(p))
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(rel -> matches(segs, 0, rel.split("/"), 0))
                    .forEach(rel -> out.add(Value.string(rel)));
        } catch (IOException e) {
            throw FunctionError.callRevealing("failed to walk " + Args.q(dir));
        }
        return Value.set(Type.STRING, out);
    }

    private static boolean matches(List<Pattern> pat, int pi, String[] path, int si) {
        if (pi == pat.size()) {
            return si == path.length;
        }
        Pattern p = pat.get(pi);
        if (p == null) {
            for (int k = si; k <= path.length; k++) {
                if (matches(pat, pi + 1, path, k)) {
                    return true;
                }
            }
            return false;
        }
        return si < path.length && p.matcher(path[si]).matches() && matches(pat, pi + 1, path, si + 1);
    }

    /** Translates one glob path segment ({@code * ? [..] {a,b}}) into an anchored pattern. */
    private static Pattern globSegment(String g) {
        StringBuilder re = new StringBuilder();
        int braces = 0;
        for (int i = 0; i < g.length(); i++) {
            char c = g.charAt(i);
            switch (c) {
                case '*' -> re.append("[^/]*");
                case '?' -> re.append("[^/]");
                case '[' -> {
                    int close = g.indexOf(']', i + 1);
                    if (close < 0) {
                        throw FunctionError.callRevealing(
                                "failed to glob pattern " + Args.q(g) + ": syntax error in pattern");
                    }
                    String body = g.substring(i + 1, close);
                    if (body.startsWith("!") || body.startsWith("^")) {
                        body = "^" + body.substring(1);
                    }
                    re.append('[').append(body.replace("\\", "\\\\")).append(']');
                    i = close;
                }
                case '{' -> {
                    braces++;
                    re.append("(?:");
                }
                case '}' -> {
                    if (braces > 0) {
                        braces--;
                        re.append(')');
                    } else {
                        re.append("\\}");
                    }
                }
                case ',' -> re.append(braces > 0 ? "|" : ",");
                case '\\' -> {
                    if (i + 1 < g.length()) {
                        re.append(Pattern.quote(String.valueOf(g.charAt(++i))));
                    }
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        if (braces != 0) {
            throw FunctionError.callRevealing("failed to glob pattern " + Args.q(g) + ": syntax error in pattern");
        }
        return Pattern.compile(re.toString());
    }
}

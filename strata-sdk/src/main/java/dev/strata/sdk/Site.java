package dev.strata.sdk;

import java.security.CodeSource;
import java.util.Objects;
import java.util.Optional;

/**
 * Where in the program a value or declaration was created: the first frame outside the SDK. Problems
 * found at synthesis name it, so an error points at the user's line, not at the SDK.
 */
public record Site(String file, int line, String className, String method) {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final CodeSource SDK = Site.class.getProtectionDomain().getCodeSource();
    static final Site UNKNOWN = new Site("unknown", 0, "", "");

    public Site {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(method, "method");
    }

    /** The caller's site: the nearest frame whose class is not part of the SDK (nor of the JDK, nor a binding). */
    static Site capture() {
        Optional<StackWalker.StackFrame> frame = WALKER.walk(
                frames -> frames.filter(f -> !isSdkOrJdk(f.getDeclaringClass())).findFirst());
        return frame.map(f -> new Site(
                        f.getFileName() == null ? f.getClassName() : f.getFileName(),
                        Math.max(f.getLineNumber(), 0),
                        f.getClassName(),
                        f.getMethodName()))
                .orElse(UNKNOWN);
    }

    // By code source rather than by package name: the SDK's own tests share its package but are the
    // user's code for the purpose of a site.
    private static boolean isSdkOrJdk(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        return source == null || Objects.equals(source, SDK) && SDK != null || c.isAnnotationPresent(Binding.class);
    }

    @Override
    public String toString() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return file + ":" + line + (method.isEmpty() ? "" : " (" + simple + "." + method + ")");
    }
}

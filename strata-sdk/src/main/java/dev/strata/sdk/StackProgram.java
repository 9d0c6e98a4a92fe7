package dev.strata.sdk;

/**
 * The entry point of a stack that {@code strata} runs directly: {@code strata plan} in a directory
 * holding the program's jar (or a Maven project with {@code target/*.jar}) creates the class named by
 * the jar's {@value #MANIFEST_ATTRIBUTE} manifest attribute, or else the one implementation listed in
 * {@code META-INF/services/dev.strata.sdk.StackProgram}, calls {@link #build()} and runs the command on
 * the synthesised configuration. The class needs a public constructor without parameters.
 *
 * <pre>{@code
 * public final class Infra implements StackProgram {
 *     public Stack build() {
 *         Stack stack = new Stack();
 *         stack.resource("terraform_data", "hello").arg("input", "world");
 *         return stack;
 *     }
 * }
 * }</pre>
 */
public interface StackProgram {
    /** The main-section manifest attribute naming the implementation: {@code Strata-Stack: com.example.Infra}. */
    String MANIFEST_ATTRIBUTE = "Strata-Stack";

    /** Declares the stack. An exception thrown here is reported at the program line that threw it. */
    Stack build() throws Exception;
}

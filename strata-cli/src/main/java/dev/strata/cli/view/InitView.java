package dev.strata.cli.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;

/**
 * Output of {@code strata init}: progress lines as {@code terraform init} prints them, then the outcome
 * ({@link #human}); or, with {@code -json}, the same as Terraform's machine-readable stream of
 * {@code init -json}, one JSON message a line ({@link #json}).
 */
public sealed interface InitView {

    static InitView human(Terminal context) {
        return new Human(context);
    }

    static InitView json(Terminal context) {
        return new Json(context);
    }

    /** The sections of init's output, each with its heading and the message code of its JSON message. */
    enum Section {
        BACKEND("Initializing the backend...", "initializing_backend_message"),
        MODULES("Initializing modules...", "initializing_modules_message"),
        UPGRADING_MODULES("Upgrading modules...", "upgrading_modules_message"),
        PROVIDERS("Initializing provider plugins...", "initializing_provider_plugin_message");

        private final String heading;
        private final String code;

        Section(String heading, String code) {
            this.heading = heading;
            this.code = code;
        }
    }

    /** What comes before anything else: nothing, or the JSON stream's version message. */
    void start();

    void section(Section section);

    /** A line of a section's list ({@code - m in modules/m}). */
    void item(String text);

    /** A provider's step: its line as printed (after "- ") and its JSON message, which Terraform words apart. */
    void provider(String line, String message);

    /** A line of plain text. */
    void text(String text);

    /** Asks {@code question}; whether the answer is {@code yes}. */
    boolean confirm(String question);

    /** A success line, green when colour is on. */
    void done(String text);

    void blank();

    /** Terraform's note after it first records provider selections. */
    void lockCreated();

    void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources);

    /** The root module's {@code problems}, with Terraform's note on why init needs a valid configuration. */
    void invalidConfiguration(Diagnostics problems, DiagnosticRenderer.Sources sources);

    /** The closing message after a successful init; {@code spaced}: after a blank line. */
    void success(boolean spaced);

    /** Terraform's whole output for a directory without configuration files: nothing is set up. */
    void emptyDirectory();

    /** Lines for a person, as {@code terraform init} prints them. */
    final class Human implements InitView {
        private final View view;
        private final boolean automation;

        private Human(Terminal context) {
            this.view = new View(context);
            this.automation = context.inAutomation();
        }

        @Override
        public void start() {}

        @Override
        public void section(Section section) {
            view.out().println(view.style(View.Style.BOLD, section.heading));
        }

        @Override
        public void item(String text) {
            view.out().println("- " + text);
        }

        @Override
        public void provider(String line, String message) {
            item(line);
        }

        @Override
        public void text(String text) {
            view.out().println(text);
            view.out().flush();
        }

        @Override
        public boolean confirm(String question) {
            return view.confirm(question);
        }

        @Override
        public void done(String text) {
            view.out().println(view.style(View.Style.GREEN, text));
            view.out().flush();
        }

        @Override
        public void blank() {
            view.out().println();
        }

        @Override
        public void lockCreated() {
            view.out().println(InitTexts.LOCK_CREATED);
        }

        @Override
        public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
            view.diagnostics(ds, sources);
        }

        /** The note first; its detail ends with a line break, as Terraform's: a blank line more before the problems. */
        @Override
        public void invalidConfiguration(Diagnostics problems, DiagnosticRenderer.Sources sources) {
            view.diagnostics(
                    Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                    InitTexts.INVALID, InitTexts.INVALID_WHY + "\n", null))
                            .with(problems),
                    sources);
        }

        /** Under TF_IN_AUTOMATION only the first line, as Terraform. */
        @Override
        public void success(boolean spaced) {
            if (spaced) {
                view.out().println();
            }
            view.out().println(view.style(View.Style.BOLD_GREEN, InitTexts.SUCCESS));
            if (!automation) {
                view.out().println(view.style(View.Style.GREEN, "\n" + InitTexts.SUCCESS_NEXT));
            }
            view.out().flush();
        }

        @Override
        public void emptyDirectory() {
            view.out().println(view.style(View.Style.BOLD, InitTexts.EMPTY));
            view.out().println();
            view.out().println(InitTexts.EMPTY_NEXT);
            view.out().flush();
        }
    }

    /**
     * Terraform's {@code init -json} stream: the version, an {@code init_output} message with its message code
     * for each of Terraform's fixed texts, a {@code log} message for each other line, and {@code diagnostic}
     * messages. Each is written (and flushed) at once: init's steps can take seconds each.
     */
    final class Json implements InitView {
        private final View view;
        private final boolean automation;

        private Json(Terminal context) {
            this.view = new View(context);
            this.automation = context.inAutomation();
        }

        private void emit(ObjectNode n) {
            view.out().println(n.toString());
            view.out().flush();
        }

        private void output(String text, String code) {
            ObjectNode m = UiJson.message("info", text, "init_output");
            m.put("message_code", code);
            emit(m);
        }

        private void log(String text) {
            emit(UiJson.message("info", text, "log"));
        }

        @Override
        public void start() {
            emit(UiJson.version());
        }

        @Override
        public void section(Section section) {
            output(section.heading, section.code);
        }

        @Override
        public void item(String text) {
            log("- " + text);
        }

        @Override
        public void provider(String line, String message) {
            log(message);
        }

        @Override
        public void text(String text) {
            log(text);
        }

        /**
         * Never asked: init refuses {@code -json} with {@code -migrate-state}, the only option that asks.
         * Declines, so that nothing is copied without an answer.
         */
        @Override
        public boolean confirm(String question) {
            return false;
        }

        @Override
        public void done(String text) {
            log(text.strip());
        }

        @Override
        public void blank() {}

        @Override
        public void lockCreated() {
            output(InitTexts.LOCK_CREATED, "lock_info");
        }

        @Override
        public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
            for (dev.strata.hcl.Diagnostic d : ds.inPlaceOrder()) {
                emit(UiJson.diagnostic(d, sources));
            }
        }

        /** As Terraform's stream: the problems first, then the note, whole in its summary. */
        @Override
        public void invalidConfiguration(Diagnostics problems, DiagnosticRenderer.Sources sources) {
            diagnostics(problems, sources);
            emit(UiJson.diagnostic(
                    dev.strata.hcl.Diagnostic.error(InitTexts.INVALID + "\n\n" + InitTexts.INVALID_WHY, "", null)));
        }

        /** Under TF_IN_AUTOMATION only the first message, as Terraform. */
        @Override
        public void success(boolean spaced) {
            output(InitTexts.SUCCESS, "output_init_success_message");
            if (!automation) {
                output(InitTexts.SUCCESS_NEXT, "output_init_success_cli_message");
            }
        }

        @Override
        public void emptyDirectory() {
            output(InitTexts.EMPTY + "\n\n" + InitTexts.EMPTY_NEXT, "output_init_empty_message");
        }
    }
}

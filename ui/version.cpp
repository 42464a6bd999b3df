// ui library anchor; real sources arrive with the main window.
namespace fdlab::ui { const char* uiVersion() { return "0"; } }

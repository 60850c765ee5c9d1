# Tether's shell integration for fish, found in vendor_conf.d through the XDG_DATA_DIRS the start
# command set (given back here, so programs the shell runs see the user's own). At the first
# prompt, after the user's config.fish: OSC 133 around each prompt and command, OSC 7 with the
# folder, unless the shell marks its commands already.
if set -q __TETHER_XDG_DATA_DIRS
    if test -n "$__TETHER_XDG_DATA_DIRS"
        set -gx XDG_DATA_DIRS $__TETHER_XDG_DATA_DIRS
    else
        set -e XDG_DATA_DIRS
    end
    set -e __TETHER_XDG_DATA_DIRS
end

status is-interactive; or return

function __tether_install --on-event fish_prompt
    functions -e __tether_install
    set -q VSCODE_SHELL_INTEGRATION; and return
    set -q ITERM_SHELL_INTEGRATION_INSTALLED; and return
    # fish 4 marks its prompts and commands itself.
    test (string split . -- $version)[1] -ge 4; and return
    string match -q -- '*]133;*' (functions fish_prompt); and return

    function __tether_preexec --on-event fish_preexec
        set -g __tether_ran 1
        printf '\e]133;C;cmdline_url=%s\a' (string escape --style=url -- $argv[1])
    end
    function __tether_postexec --on-event fish_postexec
        set -l last $status
        set -q __tether_ran; or return
        set -e __tether_ran
        printf '\e]133;D;%s\a' $last
    end
    function __tether_return
        return $argv[1]
    end
    functions -c fish_prompt __tether_user_prompt
    function fish_prompt
        set -l last $status
        printf '\e]7;file://%s%s\a' $hostname (string escape --style=url -- $PWD)
        printf '\e]133;A\a'
        __tether_return $last
        __tether_user_prompt
        printf '\e]133;B\a'
    end
end

# Tether's shell integration for zsh, read as .zshenv from the ZDOTDIR the start command set. It
# gives ZDOTDIR back at once, so zsh reads the user's own .zshenv, .zprofile, .zshrc and .zlogin as
# it would have, and loads the marks (tether.zsh) for an interactive shell.
if (( ${+__TETHER_ZDOTDIR} )); then
  ZDOTDIR=$__TETHER_ZDOTDIR
  unset __TETHER_ZDOTDIR
else
  unset ZDOTDIR
fi
typeset -g __tether_dir=${${(%):-%x}:A:h}
[[ -r ${ZDOTDIR:-$HOME}/.zshenv ]] && source ${ZDOTDIR:-$HOME}/.zshenv
[[ -o interactive ]] && source $__tether_dir/tether.zsh
unset __tether_dir
